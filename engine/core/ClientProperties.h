#pragma once

#include <QString>

namespace md {

// librdkafka properties MirrorDesk never sets from a profile, an imported
// mm2.properties or a saved connection. librdkafka acts on them as soon as
// they are set or a client starts: it loads a shared library
// (plugin.library.paths, ssl.engine.location, ssl.providers) or runs a
// command (sasl.kerberos.kinit.cmd). A file someone sent must not run code
// when it is opened, checked, imported or run.
//
// The reason, for people ("loads a shared library (a librdkafka plugin)");
// empty when `name` is not one of them.
QString refusedClientPropertyReason(const QString &name);

} // namespace md
