"""The bot ladder on the server (issue 26; docs/ladder.md): bots queue with their player key,
are seated in duplicate sets as they are free, and are rated from every game."""
