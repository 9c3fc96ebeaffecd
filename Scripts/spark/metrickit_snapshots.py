#!/usr/bin/env python3
"""One metrics-report snapshot per app version of a MetricKit NDJSON dump, computed by Apache Spark.

Each partition of the dump's lines is piped once through `metrics-report snapshot --stdin --compact`
with every version asked, which writes one line per version (the binary is shipped to the executors
with SparkContext.addFile and found there with SparkFiles.get); a partition without a payload of a
version gives an empty snapshot of it, never an error.
The driver merges each version's shards with `metrics-report merge --stdin`: merged, they equal the
snapshot a single machine takes of the whole dump, except `inputs.files`, which counts the partitions.

  spark-submit Scripts/spark/metrickit_snapshots.py --binary /path/to/metrics-report \\
      --input 's3a://bucket/metrickit/*.ndjson' --versions 3.8.0 3.9.0 --output snapshots/
  metrics-report compare --baseline-file snapshots/3.8.0.json --candidate-file snapshots/3.9.0.json

Options: --partitions N (at least N partitions), --master URL (default: spark-submit's), --pipe (use
rdd.pipe(..., checkCode=True) with the binary at the same path on every executor instead of shipping it).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

from pyspark import SparkFiles
from pyspark.sql import SparkSession


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="the metrics-report executable (on the driver)")
    parser.add_argument("--input", required=True, help="NDJSON files: a path, a glob or any Hadoop URI")
    parser.add_argument("--versions", nargs="+", required=True, help="the app versions to snapshot")
    parser.add_argument("--output", required=True, help="a directory for <version>.json (on the driver)")
    parser.add_argument("--partitions", type=int, default=None, help="at least this many partitions")
    parser.add_argument("--master", default=None, help="the Spark master (default: spark-submit's)")
    parser.add_argument("--pipe", action="store_true", help="rdd.pipe with checkCode=True (binary installed)")
    return parser.parse_args()


def snapshot_command(binary, versions):
    """One snapshot run for a partition: every version at once, one compact line per version."""
    command = [binary, "snapshot", "--stdin", "--compact"]
    for version in versions:
        command += ["--app-version", version]
    return command


def snapshot_partition(binary_name, versions):
    """The function each executor runs on a partition: its lines piped through one snapshot run that
    writes one line per version (an empty shard for a version the partition does not hold)."""

    def run(lines):
        binary = SparkFiles.get(binary_name)
        os.chmod(binary, 0o755)  # a fetched file may lose its executable bit
        with tempfile.TemporaryFile() as part:
            for line in lines:
                part.write(line.encode())
                part.write(b"\n")
            part.seek(0)
            done = subprocess.run(
                snapshot_command(binary, versions), stdin=part, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if done.returncode != 0:
            raise RuntimeError(f"metrics-report snapshot failed ({done.returncode}): {done.stderr.decode()}")
        yield from done.stdout.decode().splitlines(keepends=True)

    return run


def version_of(line):
    """The version a compact snapshot line is of."""
    return json.loads(line)["version"]


def main():
    args = arguments()
    builder = SparkSession.builder.appName("metrickit-snapshots").config("spark.ui.showConsoleProgress", "false")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    lines = sc.textFile(args.input, minPartitions=args.partitions) if args.partitions else sc.textFile(args.input)
    print(f"{lines.getNumPartitions()} partitions", file=sys.stderr)

    if args.pipe:
        # The binary must be at this path on every executor (installed, or a shared file system).
        command = " ".join(shlex.quote(word) for word in snapshot_command(os.path.abspath(args.binary), args.versions))
        collected = [line + "\n" for line in lines.pipe(command, checkCode=True).collect()]
    else:
        sc.addFile(os.path.abspath(args.binary))
        collected = lines.mapPartitions(snapshot_partition(os.path.basename(args.binary), args.versions)).collect()
    shards = {version: [] for version in args.versions}
    for line in collected:
        shards[version_of(line)].append(line)

    os.makedirs(args.output, exist_ok=True)
    for version, parts in shards.items():
        empty = sum('"payloads":0,"histograms"' in part for part in parts)
        target = os.path.join(args.output, f"{version}.json")
        subprocess.run([args.binary, "merge", "--stdin", "-o", target], input="".join(parts).encode(), check=True)
        print(f"{version}: {len(parts)} shards ({empty} without the version) -> {target}", file=sys.stderr)
    spark.stop()


if __name__ == "__main__":
    main()
