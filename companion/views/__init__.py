"""The pages of the companion screen, one module each; `companion.screen` routes between them."""
