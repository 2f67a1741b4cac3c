#include "RegistryTestEnv.h"

#include <QDir>
#include <QFile>

namespace md::test {

namespace {

QString registryUrlFile()
{
    return QDir(stateDir()).filePath(QStringLiteral("registry/url"));
}

} // namespace

QString registryUrl()
{
    const QString overridden = qEnvironmentVariable("MIRRORDESK_REGISTRY_URL").trimmed();
    if (!overridden.isEmpty())
        return overridden;
    QFile file(registryUrlFile());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

bool registryAvailable(QString *missing)
{
    if (!registryUrl().isEmpty())
        return true;
    if (missing) {
        *missing = QStringLiteral("Schema registry not running (env MIRRORDESK_REGISTRY_URL unset, %1 missing). "
                                  "Start it with 'MIRRORDESK_KAFKA_STATE=%2 bash tests/kafka/harness.sh start-all' "
                                  "(or registry-start) or run the test through ctest (fixture 'kafka').")
                       .arg(registryUrlFile(), stateDir());
    }
    return false;
}

} // namespace md::test
