"""Search tiers behind one interface: qmd, ck, grep, store."""
