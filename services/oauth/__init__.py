"""OAuth 2.0 authorization server (code with PKCE): clients, codes, token families, consent."""
