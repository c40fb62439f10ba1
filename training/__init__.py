"""Self-play training with stable-baselines3 / sb3-contrib."""
