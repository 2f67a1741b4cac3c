#include "RegistryPair.h"

#include "KafkaTestEnv.h"

namespace md::test {

namespace {

// A schema text no registry has seen yet: its id is the registry's next one.
std::optional<int> registerFiller(SchemaRegistryClient &client, const QString &subject, int n, QString *error)
{
    const QByteArray text = QStringLiteral(R"({"type":"fixed","name":"%1_%2","size":1})")
                                .arg(QString(subject).replace(QLatin1Char('-'), QLatin1Char('_')))
                                .arg(n)
                                .toUtf8();
    RegistryError e;
    const std::optional<int> id = client.registerSchema(subject, QStringLiteral("AVRO"), text, {}, &e);
    if (!id)
        *error = QStringLiteral("registering a filler schema: ") + e.message;
    return id;
}

} // namespace

bool alignSchemaIds(SchemaRegistryClient &a, SchemaRegistryClient &b, QString *error)
{
    const QString subject = uniqueName(QStringLiteral("filler")) + QStringLiteral("-value");
    int n = 0;
    std::optional<int> ida = registerFiller(a, subject, n++, error);
    std::optional<int> idb = ida ? registerFiller(b, subject, n++, error) : std::nullopt;
    // Each round moves the one behind by one id; a few thousand ids apart is
    // already far more than a test run registers.
    for (int round = 0; ida && idb && *ida != *idb && round < 5000; ++round) {
        if (*ida < *idb)
            ida = registerFiller(a, subject, n++, error);
        else
            idb = registerFiller(b, subject, n++, error);
    }
    if (!ida || !idb)
        return false;
    if (*ida != *idb) {
        *error = QStringLiteral("the registries' ids did not meet (%1 and %2)").arg(*ida).arg(*idb);
        return false;
    }
    return true;
}

} // namespace md::test
