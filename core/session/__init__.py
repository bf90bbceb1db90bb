"""Sessions: the queries one skill session makes, answered so that no section is sent in
full twice and the tokens served stay within the seed 004 §3.4 thresholds.

A session's memory is a small per-session file beside the trajectory logs
(`<trajectory dir>/sessions/<id>.jsonl`): one line per answered query with the sections it
sent, one per clearing, each carrying the running totals. A query reads only the lines
since the session's last clearing, under a lock that one answering process holds at a
time. The trajectory's execute lines record the same facts for the views.
"""
