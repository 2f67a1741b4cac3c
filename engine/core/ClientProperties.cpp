#include "engine/core/ClientProperties.h"

#include <QHash>

namespace md {

QString refusedClientPropertyReason(const QString &name)
{
    // librdkafka matches names exactly; trimmed like every other property name here.
    static const QHash<QString, QString> refused{
        {QStringLiteral("plugin.library.paths"), QStringLiteral("loads a shared library (a librdkafka plugin)")},
        {QStringLiteral("ssl.engine.location"), QStringLiteral("loads a shared library (an OpenSSL engine)")},
        {QStringLiteral("ssl.providers"), QStringLiteral("loads shared libraries (OpenSSL providers)")},
        {QStringLiteral("sasl.kerberos.kinit.cmd"), QStringLiteral("runs a shell command (the Kerberos kinit)")},
    };
    const QString reason = refused.value(name.trimmed());
    if (reason.isEmpty())
        return {};
    return reason +
           QStringLiteral("; MirrorDesk never takes it from a profile, an import or a connection, so that opening or "
                          "running a file cannot run code");
}

} // namespace md
