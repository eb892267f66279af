"""Tenants, their users and support staff: passwords, sign-in and its throttle, access tokens."""
