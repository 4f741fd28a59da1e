"""`bench.java_recording`: a flight recording's samples, grouped by the thread pool they ran on."""

from bench.java_recording import shares, thread_group


def test_threads_of_one_pool_are_one_group() -> None:
    assert thread_group("neo4j.BoltWorker-4 [bolt-2 - /127.0.0.1:52984]") == "neo4j.BoltWorker"
    assert thread_group("Lucene Merge Thread #52") == "Lucene Merge Thread"
    assert thread_group("neo4j.IndexUpdating-1") == "neo4j.IndexUpdating"
    assert thread_group("C2 CompilerThread0") == "C2 CompilerThread"
    assert thread_group("main") == "main"
    assert thread_group("42") == "42"


def test_shares_are_counted_by_group_largest_first() -> None:
    threads = [
        "neo4j.BoltWorker-4 [bolt-2 - /127.0.0.1:52984]",
        "neo4j.BoltWorker-5 [bolt-3 - /127.0.0.1:52990]",
        "Lucene Merge Thread #44",
        "neo4j.BoltWorker-4 [bolt-2 - /127.0.0.1:52984]",
    ]
    assert shares(threads) == [("neo4j.BoltWorker", 0.75), ("Lucene Merge Thread", 0.25)]
