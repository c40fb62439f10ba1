"""Bots and trained-policy loaders behind one agent interface."""
