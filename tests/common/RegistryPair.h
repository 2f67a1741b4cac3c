#pragma once

// Two independent registries (the harness's default one and "second") number
// their schemas each on its own: Apicurio gives every new schema text the next
// content id of its registry. A test that needs an id to mean something known
// on both (the same schema, another schema, or nothing) first brings the two
// counters level with alignSchemaIds, then registers in lockstep: a new text
// on both gets the same id, a text on one side only leaves that id absent on
// the other until the other registers something new. The integration tests
// hold the `kafka` resource lock, so nothing else registers meanwhile.

#include "engine/schema/SchemaRegistryClient.h"

#include <QString>

namespace md::test {

// Registers filler schemas (a subject of their own) on whichever registry is
// behind until the next new text gets the same id on both. False with *error
// when a registry refuses or the counters do not meet.
bool alignSchemaIds(SchemaRegistryClient &a, SchemaRegistryClient &b, QString *error);

} // namespace md::test
