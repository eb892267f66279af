"""Semantic retrieval: embeddings of passages, their vector storage, nearest neighbours."""
