#include "RegistryTestEnv.h"

#include <QDir>
#include <QFile>

namespace md::test {

namespace {

QString registryUrlFile()
{
    return QDir(stateDir()).filePath(QStringLiteral("registry/url"));
}

QString registryHttpsUrlFile()
{
    return QDir(stateDir()).filePath(QStringLiteral("registry/https-url"));
}

QString secondRegistryUrlFile()
{
    return QDir(stateDir()).filePath(QStringLiteral("registry-second/url"));
}

QString firstLineOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

} // namespace

QString registryUrl()
{
    const QString overridden = qEnvironmentVariable("MIRRORDESK_REGISTRY_URL").trimmed();
    if (!overridden.isEmpty())
        return overridden;
    return firstLineOf(registryUrlFile());
}

QString registryHttpsUrl()
{
    const QString overridden = qEnvironmentVariable("MIRRORDESK_REGISTRY_HTTPS_URL").trimmed();
    return overridden.isEmpty() ? firstLineOf(registryHttpsUrlFile()) : overridden;
}

QString registryTlsFile(const QString &fileName)
{
    return QDir(stateDir()).filePath(QStringLiteral("registry/tls/") + fileName);
}

bool registryHttpsAvailable(QString *missing)
{
    if (!registryHttpsUrl().isEmpty())
        return true;
    if (missing) {
        *missing = QStringLiteral("Schema registry over https not running (env MIRRORDESK_REGISTRY_HTTPS_URL unset, "
                                  "%1 missing: a registry started by an older harness has no https). Start it with "
                                  "'MIRRORDESK_KAFKA_STATE=%2 bash tests/kafka/harness.sh start-all' (or "
                                  "registry-start) or run the test through ctest (fixture 'kafka').")
                       .arg(registryHttpsUrlFile(), stateDir());
    }
    return false;
}

QString secondRegistryUrl()
{
    const QString overridden = qEnvironmentVariable("MIRRORDESK_SECOND_REGISTRY_URL").trimmed();
    return overridden.isEmpty() ? firstLineOf(secondRegistryUrlFile()) : overridden;
}

bool secondRegistryAvailable(QString *missing)
{
    if (!secondRegistryUrl().isEmpty())
        return true;
    if (missing) {
        *missing = QStringLiteral("Second schema registry not running (env MIRRORDESK_SECOND_REGISTRY_URL unset, %1 "
                                  "missing: a harness older than the second registry). Start it with "
                                  "'MIRRORDESK_KAFKA_STATE=%2 bash tests/kafka/harness.sh start-all' (or "
                                  "registry-start second) or run the test through ctest (fixture 'kafka').")
                       .arg(secondRegistryUrlFile(), stateDir());
    }
    return false;
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
