"""The HTTP API and the table socket, one module per concern; `vertex.server.app` wires them."""
