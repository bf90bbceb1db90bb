"""Measuring answer quality (DESIGN §8): known-item query sets, run through the engine,
scored as MRR@10, hit@1, hit@5, tokens per hit and answering-passage coverage."""
