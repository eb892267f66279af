"""Domain operations shared by the API, the portal, the CLI and the jobs."""
