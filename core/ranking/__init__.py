"""The ranking core (DESIGN §2): how tierscope turns a query into terms, scores whole
files with BM25, and cuts the best section of a file as the snippet. Used by the grep tier
and by every tier that ranks text itself."""
