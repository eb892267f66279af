"""Analytics: aggregates kept as things happen, read by the API and the portal's dashboard."""
