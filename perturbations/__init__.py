"""Layer 1: perturbations of texts (entity, adjective, random word, TextFooler, passive, ...)."""
