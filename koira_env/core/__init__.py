"""The game-agnostic core: the game protocol, the generic AEC env, records, the agent
interface and the plumbing every layer shares. Nothing here knows a single game's rules."""
