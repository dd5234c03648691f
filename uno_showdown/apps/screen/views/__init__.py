"""The pages of the companion screen, one module each; `apps.screen.screen` routes between them."""
