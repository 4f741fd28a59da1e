"""The labelled entity-resolution benchmark (design §10, `python -m bench quality`).

`data` builds true entities from name lists Faker and Pygments ship, `variants` the spellings
people produce, `castle` runs them through castlegraph's real resolution path, `baselines` and
`baseline_graphiti` through the approaches of its peers, `eval` scores every resolver the same
way and `report` prints the tables; `run` ties them together.
"""
