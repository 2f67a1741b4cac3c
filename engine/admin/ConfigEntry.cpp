#include "engine/admin/ConfigEntry.h"

#include "engine/admin/AdminCall.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"

#include <QMap>

#include <vector>

namespace md {

namespace {

ConfigSource mapSource(rd_kafka_ConfigSource_t s)
{
    switch (s) {
    case RD_KAFKA_CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG: return ConfigSource::Dynamic;
    case RD_KAFKA_CONFIG_SOURCE_DYNAMIC_BROKER_CONFIG:
    case RD_KAFKA_CONFIG_SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG: return ConfigSource::DynamicBroker;
    case RD_KAFKA_CONFIG_SOURCE_STATIC_BROKER_CONFIG: return ConfigSource::Static;
    case RD_KAFKA_CONFIG_SOURCE_DEFAULT_CONFIG: return ConfigSource::Default;
    default: return ConfigSource::Unknown;
    }
}

// Topics per DescribeConfigs request: a large cluster's plan stays a handful
// of requests without one answer growing without bound.
constexpr qsizetype kTopicsPerRequest = 200;

} // namespace

ConfigEntry configEntryFrom(const rd_kafka_ConfigEntry_t *entry)
{
    ConfigEntry e;
    e.name = QString::fromUtf8(rd_kafka_ConfigEntry_name(entry));
    if (const char *v = rd_kafka_ConfigEntry_value(entry))
        e.value = QString::fromUtf8(v);
    e.source = mapSource(rd_kafka_ConfigEntry_source(entry));
    e.readOnly = rd_kafka_ConfigEntry_is_read_only(entry);
    e.sensitive = rd_kafka_ConfigEntry_is_sensitive(entry);
    e.isDefault = rd_kafka_ConfigEntry_is_default(entry);
    return e;
}

TopicConfigsByName describeTopicConfigEntries(rd_kafka_t *rk, const QStringList &topics, int timeoutMs)
{
    TopicConfigsByName out;
    for (qsizetype from = 0; from < topics.size(); from += kTopicsPerRequest) {
        const QStringList batch = topics.mid(from, kTopicsPerRequest);
        std::vector<ConfigResourcePtr> owned;
        std::vector<rd_kafka_ConfigResource_t *> arr;
        for (const QString &t : batch) {
            owned.emplace_back(rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, t.toUtf8().constData()));
            arr.push_back(owned.back().get());
        }
        QString error;
        rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
        EventPtr ev = adminCall(
            rk, RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, timeoutMs,
            [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                rd_kafka_DescribeConfigs(rk, arr.data(), arr.size(), o, q);
            },
            &error, &code);
        size_t cnt = 0;
        const rd_kafka_ConfigResource_t **rs =
            ev ? rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev.get()), &cnt)
               : nullptr;
        for (size_t i = 0; i < cnt; ++i) {
            const QString name = QString::fromUtf8(rd_kafka_ConfigResource_name(rs[i]));
            DescribedTopicConfigs &d = out[name];
            if (const rd_kafka_resp_err_t err = rd_kafka_ConfigResource_error(rs[i])) {
                const char *s = rd_kafka_ConfigResource_error_string(rs[i]);
                d.error = QString::fromUtf8(s && *s ? s : rd_kafka_err2str(err));
                continue;
            }
            size_t n = 0;
            const rd_kafka_ConfigEntry_t **entries = rd_kafka_ConfigResource_configs(rs[i], &n);
            // Sorted by name through a map (names are unique per topic).
            QMap<QString, ConfigEntry> byName;
            for (size_t k = 0; k < n; ++k) {
                ConfigEntry e = configEntryFrom(entries[k]);
                byName.insert(e.name, e);
            }
            d.entries = byName.values();
        }
        // A failed request, or a topic the answer left out: say so for each.
        for (const QString &t : batch) {
            if (!out.contains(t)) {
                out[t].error = error.isEmpty() ? QStringLiteral("no answer for this topic") : error;
                out[t].unsupported = code == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE;
            }
        }
    }
    return out;
}

DescribedTopicConfigs describeBrokerConfigEntries(rd_kafka_t *rk, int timeoutMs)
{
    DescribedTopicConfigs d;
    const rd_kafka_metadata_t *raw = nullptr;
    if (const auto err = rd_kafka_metadata(rk, 0, nullptr, &raw, timeoutMs)) {
        d.error = kafkaErrorText(err);
        return d;
    }
    MetadataPtr md(raw);
    if (md->broker_cnt < 1) {
        d.error = QStringLiteral("no broker in the metadata");
        return d;
    }
    const QByteArray id = QByteArray::number(md->brokers[0].id);
    ConfigResourcePtr res(rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_BROKER, id.constData()));
    rd_kafka_ConfigResource_t *arr[] = {res.get()};
    EventPtr ev = adminCall(
        rk, RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, timeoutMs,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) { rd_kafka_DescribeConfigs(rk, arr, 1, o, q); }, &d.error);
    if (!ev)
        return d;
    size_t cnt = 0;
    const rd_kafka_ConfigResource_t **rs =
        rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev.get()), &cnt);
    if (cnt < 1 || rd_kafka_ConfigResource_error(rs[0])) {
        const char *s = cnt ? rd_kafka_ConfigResource_error_string(rs[0]) : nullptr;
        d.error =
            s && *s ? QString::fromUtf8(s) : QStringLiteral("no configs for broker %1").arg(QString::fromLatin1(id));
        return d;
    }
    size_t n = 0;
    const rd_kafka_ConfigEntry_t **entries = rd_kafka_ConfigResource_configs(rs[0], &n);
    QMap<QString, ConfigEntry> byName;
    for (size_t i = 0; i < n; ++i) {
        ConfigEntry e = configEntryFrom(entries[i]);
        byName.insert(e.name, e);
    }
    d.entries = byName.values();
    return d;
}

} // namespace md
