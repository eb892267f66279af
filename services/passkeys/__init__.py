"""Passkeys (WebAuthn): registering a user's authenticators and signing in with them."""
