"""Domain operations shared by the API, the portal, the CLI and the jobs, one package per
capability (docs/architecture.md draws the map and the direction of imports)."""
