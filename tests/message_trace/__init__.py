"""Every websocket message the tests make a server send, written down and checked against its schema."""
