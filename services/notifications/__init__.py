"""Notifications per person: created by other capabilities' signals and by the daily check of
API keys due for rotation, listed and marked read through the API and the portal's bell."""
