"""Second factors beside passkeys: TOTP authenticators, recovery codes, the second step of a
password sign-in (`mfaToken`) and the tenant's requirement of a second factor."""
