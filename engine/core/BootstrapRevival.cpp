#include "engine/core/BootstrapRevival.h"

namespace md {

int reviveBootstrapBrokers(rd_kafka_t *rk, const QString &bootstrap)
{
    if (!rk || bootstrap.trimmed().isEmpty())
        return 0;
    return rd_kafka_brokers_add(rk, bootstrap.trimmed().toUtf8().constData());
}

} // namespace md
