#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>

namespace md {

// Avro binary, the payload of a record in the Confluent wire format (after its
// 5-byte prefix), as JSON text. One decoder per writer schema, built once and
// cached by schema id; decode() may run on several threads at once.
class AvroDecoder {
public:
    // `schema`: the writer's schema (Avro JSON). `references`: the schemas of
    // the named types it uses from other subjects (each Avro JSON), ordered so
    // that a schema comes after those it uses. Null with *error naming what
    // did not parse (which reference, and Avro's reason).
    static std::unique_ptr<AvroDecoder> create(const QByteArray &schema, const QList<QByteArray> &references,
                                               QString *error);
    ~AvroDecoder();
    AvroDecoder(const AvroDecoder &) = delete;
    AvroDecoder &operator=(const AvroDecoder &) = delete;

    // *json: the record as one line of JSON in Avro's JSON encoding (a union
    // as {"type": value}, bytes and fixed as strings of \u00XX escapes, as
    // kafka-avro-console-consumer prints). False with *error when the bytes do
    // not match the schema (truncated, bytes left over, a bad union index ...).
    bool decode(const char *data, size_t size, QByteArray *json, QString *error) const;

private:
    AvroDecoder();
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace md
