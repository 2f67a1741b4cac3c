#include "engine/mirror/MirrorWorker.h"

#include "engine/admin/AdminCall.h"
#include "engine/admin/ConfigEntry.h"
#include "engine/mirror/TargetTopicRule.h"

#include <memory>

namespace md {

// ---------------------------------------------------------------- topic configs and identity while running

namespace {

QString configValue(const DescribedTopicConfigs &d, const QString &name, bool *dynamic = nullptr)
{
    for (const ConfigEntry &e : d.entries) {
        if (e.name == name) {
            if (dynamic)
                *dynamic = e.source == ConfigSource::Dynamic;
            return e.value.value_or(QString());
        }
    }
    if (dynamic)
        *dynamic = false;
    return {};
}

} // namespace

void MirrorWorker::pollTopicIds()
{
    const std::optional<QHash<QString, QByteArray>> ids = m_topicIds.poll(Clock::now());
    if (!ids)
        return;
    for (auto idIt = ids->cbegin(); idIt != ids->cend(); ++idIt) {
        const QByteArray &id = idIt.value();
        auto it = m_topics.find(idIt.key());
        if (it == m_topics.end())
            continue;
        TopicState *t = it->second.get();
        if (!t->topicId.isEmpty() && t->topicId != id) {
            event(JobEvent::Severity::Warning,
                  QStringLiteral("source topic %1 was deleted and recreated (topic id %2, was %3): copying it from its "
                                 "first record")
                      .arg(t->name, QString::fromLatin1(id), QString::fromLatin1(t->topicId)));
            for (auto &p : t->parts) {
                if (!p || !p->assigned)
                    continue;
                p->ring.clear();    // what is in flight came from the old topic
                p->knownTs.clear(); // timestamps of the old topic's offsets
                p->map.reset();     // its segments, and what the map said of it
                p->map.resetFirst();
                p->consumedNext = 0;
                p->resumeFrom = 0;
                p->atEof = false;
                p->done = false;
                p->committed = -1;
            }
            applyPauses();
        }
        t->topicId = id;
    }
}

void MirrorWorker::syncTopicConfigs()
{
    // Target topic configs follow the source while the job runs, minus the
    // excluded ones. Only what the source sets is changed on the target; an
    // override set on the target alone stays, unless the job set it before.
    if (!m_spec.syncTopicConfigs)
        return;
    QStringList sources, targets;
    for (const QString &name : std::as_const(m_subscribed)) {
        auto it = m_topics.find(name);
        if (it != m_topics.end() && it->second->targetReady) {
            sources << name;
            targets << it->second->targetName;
        }
    }
    if (sources.isEmpty())
        return;
    const TopicConfigsByName src = describeTopicConfigEntries(m_consumer.get(), sources, 5000);
    const TopicConfigsByName dst = describeTopicConfigEntries(m_producer.get(), targets, 5000);
    const QStringList excludes = configExcludes(m_spec);
    std::vector<ConfigResourcePtr> resources;
    QList<QPair<TopicState *, QStringList>> changes;
    for (qsizetype i = 0; i < sources.size(); ++i) {
        const DescribedTopicConfigs s = src.value(sources[i]);
        const DescribedTopicConfigs d = dst.value(targets[i]);
        if (!s.ok() || !d.ok())
            continue;
        TopicState *t = m_topics.at(sources[i]).get();
        const QMap<QString, QString> wanted = copiedTopicConfigs(excludes, s.entries);
        ConfigResourcePtr res(rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, targets[i].toUtf8().constData()));
        QStringList what;
        for (auto it = wanted.cbegin(); it != wanted.cend(); ++it) {
            const QString now = configValue(d, it.key());
            if (now == it.value())
                continue;
            ErrorPtr(rd_kafka_ConfigResource_add_incremental_config(res.get(), it.key().toUtf8().constData(),
                                                                    RD_KAFKA_ALTER_CONFIG_OP_TYPE_SET,
                                                                    it.value().toUtf8().constData()));
            what << QStringLiteral("%1 %2 -> %3")
                        .arg(it.key(), now.isEmpty() ? QStringLiteral("(default)") : now, it.value());
        }
        for (auto it = t->syncedConfigs.cbegin(); it != t->syncedConfigs.cend(); ++it) {
            bool dynamic = false;
            configValue(d, it.key(), &dynamic);
            if (wanted.contains(it.key()) || !dynamic)
                continue;
            ErrorPtr(rd_kafka_ConfigResource_add_incremental_config(res.get(), it.key().toUtf8().constData(),
                                                                    RD_KAFKA_ALTER_CONFIG_OP_TYPE_DELETE, nullptr));
            what << QStringLiteral("%1 back to the target's default").arg(it.key());
        }
        t->syncedConfigs = wanted;
        if (!what.isEmpty()) {
            resources.push_back(std::move(res));
            changes.append({t, what});
        }
    }
    if (resources.empty())
        return;
    std::vector<rd_kafka_ConfigResource_t *> arr;
    for (auto &r : resources)
        arr.push_back(r.get());
    QString error;
    EventPtr ev = adminCall(
        m_producer.get(), RD_KAFKA_ADMIN_OP_INCREMENTALALTERCONFIGS, 5000,
        [&](rd_kafka_AdminOptions_t *options, rd_kafka_queue_t *queue) {
            rd_kafka_IncrementalAlterConfigs(m_producer.get(), arr.data(), arr.size(), options, queue);
        },
        &error);
    const rd_kafka_IncrementalAlterConfigs_result_t *result =
        ev ? rd_kafka_event_IncrementalAlterConfigs_result(ev.get()) : nullptr;
    size_t n = 0;
    const rd_kafka_ConfigResource_t **done =
        result ? rd_kafka_IncrementalAlterConfigs_result_resources(result, &n) : nullptr;
    for (qsizetype i = 0; i < changes.size(); ++i) {
        TopicState *t = changes[i].first;
        rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR__TIMED_OUT;
        QString why = error;
        for (size_t j = 0; j < n; ++j) {
            if (QString::fromUtf8(rd_kafka_ConfigResource_name(done[j])) == t->targetName) {
                err = rd_kafka_ConfigResource_error(done[j]);
                why = QString::fromUtf8(rd_kafka_ConfigResource_error_string(done[j]));
            }
        }
        if (err) {
            t->syncedConfigs.clear(); // try again next time
            debouncedEvent(QStringLiteral("configs-") + t->targetName, JobEvent::Severity::Warning,
                           QStringLiteral("could not make target topic %1's configs follow the source: %2")
                               .arg(t->targetName, why.isEmpty() ? kafkaErrorText(err) : why));
        } else {
            event(JobEvent::Severity::Info, QStringLiteral("target topic %1 follows the source's configs: %2")
                                                .arg(t->targetName, changes[i].second.join(QStringLiteral(", "))));
        }
    }
}

} // namespace md
