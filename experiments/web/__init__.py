"""``koira serve``: the web page to play the suite's bots and replay game records (docs/web.md)."""
