"""The pages of the companion screen, one module each; `companion.screen.screen`
routes between them."""
