"""One module per rule system, for what its catalog data cannot say."""
