#pragma once
// Dynamic broker configs of a single-node test cluster, changed for one test
// and put back after it (the brokers are shared by every integration test).

#include <librdkafka/rdkafka.h>

#include <QString>

#include <memory>
#include <optional>

namespace md::test {

// The Admin API on the one broker behind `bootstrap` (each test cluster is a
// single KRaft node): its id, its dynamic broker configs, set and deleted.
class BrokerConfigs final {
public:
    explicit BrokerConfigs(const QString &bootstrap)
    {
        char errstr[512];
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.toUtf8().constData(), errstr, sizeof errstr);
        rd_kafka_conf_set_log_cb(conf, [](const rd_kafka_t *, int, const char *, const char *) {});
        m_rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
        if (!m_rk) {
            rd_kafka_conf_destroy(conf);
            m_error = QString::fromUtf8(errstr);
        }
    }
    ~BrokerConfigs()
    {
        if (m_rk)
            rd_kafka_destroy(m_rk);
    }
    BrokerConfigs(const BrokerConfigs &) = delete;
    BrokerConfigs &operator=(const BrokerConfigs &) = delete;

    // The node id (as the resource name of its broker configs); empty on error.
    QString brokerId(QString *error)
    {
        if (!m_rk) {
            *error = m_error;
            return {};
        }
        const rd_kafka_metadata_t *md = nullptr;
        const rd_kafka_resp_err_t err = rd_kafka_metadata(m_rk, 0, nullptr, &md, 15000);
        if (err) {
            *error = QStringLiteral("metadata: %1").arg(QString::fromUtf8(rd_kafka_err2str(err)));
            return {};
        }
        QString id;
        if (md->broker_cnt == 1)
            id = QString::number(md->brokers[0].id);
        else
            *error = QStringLiteral("%1 brokers, expected one").arg(md->broker_cnt);
        rd_kafka_metadata_destroy(md);
        return id;
    }

    // The broker's own dynamic value of `key` (std::nullopt in *value: none
    // set for this broker id; a cluster-wide default or the file's does not count).
    bool dynamicValue(const QString &id, const QString &key, std::optional<QString> *value, QString *error)
    {
        rd_kafka_ConfigResource_t *res = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_BROKER, id.toUtf8().constData());
        rd_kafka_event_t *ev =
            call([&](rd_kafka_queue_t *q) { rd_kafka_DescribeConfigs(m_rk, &res, 1, nullptr, q); }, error);
        rd_kafka_ConfigResource_destroy(res);
        if (!ev)
            return false;
        size_t n = 0;
        const rd_kafka_ConfigResource_t **r =
            rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev), &n);
        const bool ok = resourceOk(r, n, error);
        value->reset();
        size_t m = 0;
        const rd_kafka_ConfigEntry_t **entries = ok ? rd_kafka_ConfigResource_configs(r[0], &m) : nullptr;
        for (size_t i = 0; i < m; ++i) {
            if (key == QLatin1String(rd_kafka_ConfigEntry_name(entries[i])) &&
                rd_kafka_ConfigEntry_source(entries[i]) == RD_KAFKA_CONFIG_SOURCE_DYNAMIC_BROKER_CONFIG)
                *value = QString::fromUtf8(rd_kafka_ConfigEntry_value(entries[i]));
        }
        rd_kafka_event_destroy(ev);
        return ok;
    }

    // Sets `key` to `value` for broker `id`, or deletes its dynamic value (value std::nullopt).
    bool alter(const QString &id, const QString &key, const std::optional<QString> &value, QString *error)
    {
        return alterResource(RD_KAFKA_RESOURCE_BROKER, id, key, value, error);
    }

    // The same for a topic's config.
    bool alterTopic(const QString &topic, const QString &key, const std::optional<QString> &value, QString *error)
    {
        return alterResource(RD_KAFKA_RESOURCE_TOPIC, topic, key, value, error);
    }

private:
    bool alterResource(rd_kafka_ResourceType_t type, const QString &name, const QString &key,
                       const std::optional<QString> &value, QString *error)
    {
        rd_kafka_ConfigResource_t *res = rd_kafka_ConfigResource_new(type, name.toUtf8().constData());
        rd_kafka_error_t *e = rd_kafka_ConfigResource_add_incremental_config(
            res, key.toUtf8().constData(),
            value ? RD_KAFKA_ALTER_CONFIG_OP_TYPE_SET : RD_KAFKA_ALTER_CONFIG_OP_TYPE_DELETE,
            value ? value->toUtf8().constData() : nullptr);
        if (e) {
            *error = QString::fromUtf8(rd_kafka_error_string(e));
            rd_kafka_error_destroy(e);
            rd_kafka_ConfigResource_destroy(res);
            return false;
        }
        rd_kafka_event_t *ev =
            call([&](rd_kafka_queue_t *q) { rd_kafka_IncrementalAlterConfigs(m_rk, &res, 1, nullptr, q); }, error);
        rd_kafka_ConfigResource_destroy(res);
        if (!ev)
            return false;
        size_t n = 0;
        const rd_kafka_ConfigResource_t **r =
            rd_kafka_IncrementalAlterConfigs_result_resources(rd_kafka_event_IncrementalAlterConfigs_result(ev), &n);
        const bool ok = resourceOk(r, n, error);
        rd_kafka_event_destroy(ev);
        return ok;
    }

    static bool resourceOk(const rd_kafka_ConfigResource_t **r, size_t n, QString *error)
    {
        if (n != 1) {
            *error = QStringLiteral("%1 resources in the answer, expected one").arg(n);
            return false;
        }
        if (rd_kafka_ConfigResource_error(r[0])) {
            *error = QString::fromUtf8(rd_kafka_ConfigResource_error_string(r[0]));
            return false;
        }
        return true;
    }

    template <typename Request> rd_kafka_event_t *call(Request request, QString *error)
    {
        if (!m_rk) {
            *error = m_error;
            return nullptr;
        }
        rd_kafka_queue_t *q = rd_kafka_queue_new(m_rk);
        request(q);
        rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 30000);
        rd_kafka_queue_destroy(q);
        if (!ev) {
            *error = QStringLiteral("no answer within 30 s");
        } else if (rd_kafka_event_error(ev)) {
            *error = QString::fromUtf8(rd_kafka_event_error_string(ev));
            rd_kafka_event_destroy(ev);
            ev = nullptr;
        }
        return ev;
    }

    rd_kafka_t *m_rk = nullptr;
    QString m_error;
};

// A dynamic broker config of the broker behind `bootstrap` changed for the
// lifetime of this object (the test function that holds it), then put back
// as it was: other tests share the brokers.
class ScopedBrokerConfig final {
public:
    bool set(const QString &bootstrap, const QString &key, const QString &value, QString *error)
    {
        m_admin = std::make_unique<BrokerConfigs>(bootstrap);
        m_id = m_admin->brokerId(error);
        if (m_id.isEmpty() || !m_admin->dynamicValue(m_id, key, &m_previous, error))
            return false;
        if (!m_admin->alter(m_id, key, value, error))
            return false;
        m_key = key;
        return true;
    }
    ~ScopedBrokerConfig()
    {
        if (m_key.isEmpty())
            return;
        QString error;
        if (!m_admin->alter(m_id, m_key, m_previous, &error))
            qWarning("could not put back %s of broker %s: %s", qPrintable(m_key), qPrintable(m_id), qPrintable(error));
    }

private:
    std::unique_ptr<BrokerConfigs> m_admin;
    QString m_id, m_key;
    std::optional<QString> m_previous;
};

} // namespace md::test
