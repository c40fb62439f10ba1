"""One package per game; ``koira_env.registry`` lists them."""
