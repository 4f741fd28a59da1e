import graph.duplicates as d
orig = d.group_clusters
def spy(members, pairs, checked, limit):
    print("MEMBERS", dict(members)); print("PAIRS", pairs); print("CHECKED", checked)
    out = orig(members, pairs, checked, limit); print("OUT", out); return out
d.group_clusters = spy
