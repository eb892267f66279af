"""Thumbnails: each document's small WebP picture (docs/thumbnails.md)."""
