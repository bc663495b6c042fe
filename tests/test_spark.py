"""The SQL of ``reports/sql`` in Spark (pyspark, local mode) over the Parquet files
of ``getbit export --format parquet`` gives ``getbit stats --json``'s numbers:
what someone who outgrows one machine runs on a cluster.

Skipped without pyspark (``pip install -e '.[spark]'``; it needs Java 17), unless
``GETBIT_EXPECT_SPARK=1`` (CI sets it): then a missing Spark fails the test.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from parquet_case import VIEWS, Result, build_store, check_sql, export, stats

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers


def _pyspark() -> Any:
    try:
        import pyspark.sql
    except ImportError:
        if os.environ.get("GETBIT_EXPECT_SPARK") == "1":
            pytest.fail("GETBIT_EXPECT_SPARK=1 but pyspark cannot be imported: "
                        "pip install -e '.[spark]'")
        pytest.skip("pyspark is not installed (pip install -e '.[spark]')")
    return pyspark.sql


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """One local Spark session for the module (starting one takes seconds)."""
    sql = _pyspark()
    session = (
        sql.SparkSession.builder.master("local[1]")
        .appName("getbit-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")  # not the machine's address: it may refuse
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    db = build_store(tmp_path_factory.mktemp("spark"))
    return db, export(db, db.parent / "parquet")


def test_the_sql_in_spark_gives_the_numbers_of_stats(
    spark: Any, exported: tuple[Path, Path]
) -> None:
    db, folder = exported
    for view in VIEWS:
        spark.read.parquet(str(folder / view)).createOrReplaceTempView(view)

    def run_sql(text: str) -> Result:
        frame = spark.sql(text)
        return list(frame.columns), [tuple(row) for row in frame.collect()]

    assert check_sql(run_sql, stats(db)) > 500


def test_spark_reads_every_row(spark: Any, exported: tuple[Path, Path]) -> None:
    db, folder = exported
    with sqlite3.connect(db) as conn:
        events = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert spark.read.parquet(str(folder / "events")).count() == events


def test_a_missing_spark_fails_when_ci_expects_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspark", None)  # import fails
    monkeypatch.setenv("GETBIT_EXPECT_SPARK", "1")
    with pytest.raises(pytest.fail.Exception, match="GETBIT_EXPECT_SPARK=1"):
        _pyspark()
    monkeypatch.delenv("GETBIT_EXPECT_SPARK")
    with pytest.raises(pytest.skip.Exception, match="pyspark is not installed"):
        _pyspark()
