#!/usr/bin/env python3
"""Submit a training job to Quanta from Python with Confluent's Kafka client.

Writes one JobRequest{JobSubmitted} to the submissions topic (key: the job id, value: Avro in the Confluent wire
format with the schema the registry holds for the topic), with librdkafka's own partitioner: the scheduler does not
depend on the partition a producer chooses. Prints the job id. `quanta topics apply` (and `quanta local`) register
the schemas, so this works on a fresh cluster.

    python3 submit_job.py --gpus 2 --tenant vision --model resnet50 --duration 3600
    python3 submit_job.py --config ~/.quanta/local/client.properties --gpus 1 --tenant nlp -- python train.py

Settings come from --bootstrap / --registry, else from a properties file (--config; default: the client.properties
of a running `quanta local`): bootstrap.servers, schema.registry.url and topic.submissions.name.

Needs confluent-kafka (Debian: python3-confluent-kafka python3-requests) and, for the value, either fastavro (what
Confluent's AvroSerializer uses) or Apache Avro (Debian: python3-avro; Debian has no fastavro package).
"""

import argparse
import io
import struct
import sys
import uuid
from datetime import datetime, timezone
from pathlib import Path

from confluent_kafka import SerializingProducer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.serialization import StringSerializer

DEFAULT_CONFIG = Path.home() / ".quanta" / "local" / "client.properties"
DEFAULT_TOPIC = "quanta.jobs.submissions"


def read_properties(path):
    """key=value lines of a Java properties file (comments and blank lines skipped)."""
    settings = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line[0] in "#!" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        settings[key.strip()] = value.strip().replace("\\:", ":")
    return settings


class WireFormatAvroSerializer:
    """The Confluent wire format (magic byte 0, 4-byte schema id, Avro binary) written with Apache Avro.

    Only for machines without fastavro, which Confluent's AvroSerializer needs: it writes the same bytes for a
    schema the registry already holds, looked up by subject, never registering one.
    """

    def __init__(self, schema_id, schema_str):
        import avro.io
        import avro.schema
        self._id = schema_id
        self._writer = avro.io.DatumWriter(avro.schema.parse(schema_str))
        self._encoder = avro.io.BinaryEncoder

    def __call__(self, value, ctx):
        out = io.BytesIO()
        out.write(struct.pack(">bI", 0, self._id))
        self._writer.write(value, self._encoder(out))
        return out.getvalue()


def value_serializer(registry, subject):
    """Confluent's AvroSerializer on the registered schema of the subject when fastavro is there, else the same
    wire format written with Apache Avro."""
    registered = registry.get_latest_version(subject)
    schema_str = registered.schema.schema_str
    try:
        from confluent_kafka.schema_registry.avro import AvroSerializer
    except ImportError:
        return WireFormatAvroSerializer(registered.schema_id, schema_str)
    return AvroSerializer(registry, schema_str, conf={"auto.register.schemas": False})


def job_request(args):
    """The JobRequest record: its union holds a JobSubmitted (fields as in schemas/src/main/avro/JobSubmitted.avsc)."""
    return {"request": {
        "jobId": args.job_id,
        "tenant": args.tenant,
        "numGpus": args.gpus,
        "gpuType": args.gpu_type,
        "command": args.command,
        "env": {},
        "profile": {"modelName": args.model, "tensorSizeSkew": 0.0, "gpuMemoryMiB": 0, "minibatchMillis": None},
        "expectedDurationSeconds": args.duration,
        "priority": 0,
        "maxRetries": 3,
        "submittedAt": datetime.now(timezone.utc),
    }}


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Submit a training job to Quanta (Confluent's Python client).")
    parser.add_argument("--gpus", type=int, required=True, help="GPUs the job needs at once (gang)")
    parser.add_argument("--tenant", required=True, help="team that owns the job")
    parser.add_argument("--model", default="resnet50", help="model name, e.g. resnet50, transformer")
    parser.add_argument("--duration", type=int, help="expected seconds at full speed (simulated nodes use it)")
    parser.add_argument("--gpu-type", help="GPU model the job needs, e.g. V100 (default: any)")
    parser.add_argument("--job-id", help="job id (default: job-<random>)")
    parser.add_argument("--config", type=Path, help="properties file (default: %s)" % DEFAULT_CONFIG)
    parser.add_argument("--bootstrap", help="Kafka bootstrap servers")
    parser.add_argument("--registry", help="schema registry URL (Confluent API: Apicurio's /apis/ccompat/v7)")
    parser.add_argument("command", nargs="*", help="argv of the training process (after --)")
    args = parser.parse_args(argv)
    if args.gpus < 1:
        parser.error("--gpus must be at least 1")
    args.job_id = args.job_id or "job-" + uuid.uuid4().hex[:12]
    return args


def main(argv=None):
    args = parse_args(argv)
    config = args.config or (DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None)
    settings = read_properties(config) if config else {}
    bootstrap = args.bootstrap or settings.get("bootstrap.servers")
    registry_url = args.registry or settings.get("schema.registry.url")
    if not bootstrap or not registry_url:
        print("no cluster: give --bootstrap and --registry, or --config with bootstrap.servers and "
              "schema.registry.url", file=sys.stderr)
        return 69
    topic = settings.get("topic.submissions.name", DEFAULT_TOPIC)

    registry = SchemaRegistryClient({"url": registry_url})
    producer = SerializingProducer({
        "bootstrap.servers": bootstrap,
        "key.serializer": StringSerializer("utf_8"),
        "value.serializer": value_serializer(registry, topic + "-value"),
        "enable.idempotence": True,
    })
    errors = []
    producer.produce(topic, key=args.job_id, value=job_request(args),
                     on_delivery=lambda error, message: errors.append(error))
    producer.flush(30)
    if errors != [None]:
        print("not delivered: %s" % (errors[0] if errors else "timed out"), file=sys.stderr)
        return 69
    print(args.job_id)
    return 0


if __name__ == "__main__":
    sys.exit(main())
