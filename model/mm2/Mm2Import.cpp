// mm2.properties to profiles: the clusters and enabled flows, the job each flow becomes
// (topics, groups, start, delivery) and a reason for every key left over. One cluster's
// connection and client settings are in Mm2ImportSide.cpp.

#include "model/mm2/Mm2Importer.h"

#include "model/mm2/Mm2Support.h"

#include "engine/mirror/TopicNaming.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace md::mm2 {

Importer::Importer(const QByteArray &data, const QString &fileName) : m_fileName(fileName)
{
    QList<JavaPropertiesError> errors;
    const QList<JavaProperty> props = parseJavaProperties(data, &errors);
    for (const JavaPropertiesError &e : errors)
        m_result.unmapped << Mm2Unmapped{e.line, QStringLiteral("(syntax)"), e.message};
    for (const JavaProperty &p : props) {
        if (const auto it = m_entries.constFind(p.key); it != m_entries.constEnd())
            m_result.unmapped << Mm2Unmapped{it->line, p.key, QStringLiteral("overridden by line %1").arg(p.line)};
        m_entries.insert(p.key, {p.value, p.line});
    }
}

Mm2ImportResult Importer::run()
{
    const std::optional<Entry> clusters = take(QStringLiteral("clusters"));
    if (!clusters || splitList(clusters->value).isEmpty()) {
        m_result.error = QStringLiteral("%1: no \"clusters\" list (e.g. clusters = eu, dr): not an mm2.properties for "
                                        "dedicated mode")
                             .arg(name());
        return m_result;
    }
    m_clusters = splitList(clusters->value);
    m_clusters.removeDuplicates();
    // The "A->B.enabled" keys present, found from the entries: trying every
    // pair of a long "clusters" list was n² lookups (800 names: 0.3 s). Every
    // "->" is a possible split, as a name may hold one; the pairs are then
    // taken in the order of the list, A first, as MM2 lists its flows.
    QHash<QString, qsizetype> clusterIndex;
    for (qsizetype i = 0; i < m_clusters.size(); ++i)
        clusterIndex.insert(m_clusters.at(i), i);
    QList<std::pair<qsizetype, qsizetype>> pairs;
    const QLatin1String enabledSuffix(".enabled");
    for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
        if (!it.key().endsWith(enabledSuffix))
            continue;
        const QStringView head = QStringView(it.key()).chopped(enabledSuffix.size());
        for (qsizetype at = head.indexOf(u"->"); at >= 0; at = head.indexOf(u"->", at + 1)) {
            const auto a = clusterIndex.constFind(head.left(at).toString());
            const auto b = clusterIndex.constFind(head.mid(at + 2).toString());
            if (a != clusterIndex.constEnd() && b != clusterIndex.constEnd() && *a != *b)
                pairs.append({*a, *b});
        }
    }
    std::sort(pairs.begin(), pairs.end());
    for (const auto &[i, j] : std::as_const(pairs)) {
        const QString &a = m_clusters.at(i);
        const QString &b = m_clusters.at(j);
        const std::optional<Entry> enabled = take(a + QStringLiteral("->") + b + QStringLiteral(".enabled"));
        if (enabled && javaBool(enabled->value))
            m_flows << qMakePair(a, b);
    }
    if (m_flows.isEmpty()) {
        m_result.error = QStringLiteral("%1: no enabled flow: MM2 runs a flow only with \"A->B.enabled = true\" "
                                        "(clusters: %2)")
                             .arg(name(), m_clusters.join(QStringLiteral(", ")));
        return m_result;
    }
    // Understood: ${env:...} references need nothing more from MirrorDesk.
    for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
        if (it.key() == QLatin1String("config.providers") || it.key().startsWith(QLatin1String("config.providers.")))
            m_used.insert(it.key());
    }
    for (const auto &[a, b] : std::as_const(m_flows))
        m_result.flows << flow(a, b);
    explainLeftovers();
    std::stable_sort(m_result.unmapped.begin(), m_result.unmapped.end(),
                     [](const Mm2Unmapped &x, const Mm2Unmapped &y) { return x.line < y.line; });
    return m_result;
}

Mm2Flow Importer::flow(const QString &a, const QString &b)
{
    Mm2Flow f;
    f.sourceAlias = a;
    f.targetAlias = b;
    JobProfile &p = f.profile;
    p.name = a + QStringLiteral(" to ") + b;
    p.fileName = f.fileName();
    side(a, &p.source, true);
    side(b, &p.target, false);
    // Flow-level client overrides ("A->B.consumer.x" is the source consumer).
    const QString flowPrefix = a + QStringLiteral("->") + b + QLatin1Char('.');
    for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
        if (!it.key().startsWith(flowPrefix))
            continue;
        const QString rest = it.key().mid(flowPrefix.size());
        if (rest.startsWith(QLatin1String("consumer.")))
            clientProperty(it.key(), rest.mid(9), it->value, &p.source.consumerProperties);
        else if (rest.startsWith(QLatin1String("producer.")))
            clientProperty(it.key(), rest.mid(9), it->value, &p.target.producerProperties);
    }

    // Where to start: MM2 resumes from its own offsets, else the consumer's auto.offset.reset (earliest).
    const QString resetKey = a + QStringLiteral(".consumer.auto.offset.reset");
    const QString flowResetKey = flowPrefix + QStringLiteral("consumer.auto.offset.reset");
    std::optional<Entry> reset = take(flowResetKey);
    if (!reset)
        reset = take(resetKey);
    p.start = StartPosition::Committed;
    if (reset) {
        const QString v = reset->value.trimmed().toLower();
        if (v == QLatin1String("latest")) {
            p.start = StartPosition::Latest;
            m_result.notes << QStringLiteral(
                                  "%1->%2: auto.offset.reset=latest became \"start\": \"latest\" (skips what the "
                                  "source holds when the job first starts)")
                                  .arg(a, b);
        } else if (v != QLatin1String("earliest")) {
            m_used.remove(m_entries.contains(flowResetKey) ? flowResetKey : resetKey);
            unmapped(m_entries.contains(flowResetKey) ? flowResetKey : resetKey,
                     QStringLiteral("only earliest and latest have an equivalent"));
        }
    }

    // Topics.
    if (const auto e = flowValue(a, b, QStringLiteral("topics")))
        p.include = splitList(e->value);
    else
        p.include = {QStringLiteral(".*")};
    if (p.include.isEmpty()) {
        unmapped(flowKey(a, b, QStringLiteral("topics")),
                 QStringLiteral("an empty topic list mirrors nothing; \".*\" used"));
        p.include = {QStringLiteral(".*")};
    }
    const std::optional<Entry> exclude = flowValue(a, b, QStringLiteral("topics.exclude"));
    // The deprecated name counts only where topics.exclude is not given (as in MM2).
    const std::optional<Entry> blacklist = exclude ? std::nullopt : flowValue(a, b, QStringLiteral("topics.blacklist"));
    if (exclude)
        p.exclude = splitList(exclude->value);
    else if (blacklist)
        p.exclude = splitList(blacklist->value);
    else
        p.exclude = mm2DefaultExclude();
    p.excludeInternalTopics = true;

    // Naming.
    const QString policyKey = flowKey(a, b, QStringLiteral("replication.policy.class"));
    const std::optional<Entry> policy = flowValue(a, b, QStringLiteral("replication.policy.class"));
    if (const auto sep = flowValue(a, b, QStringLiteral("replication.policy.separator")))
        p.separator = sep->value;
    else
        p.separator = QStringLiteral(".");
    p.naming = NamingPolicy::Prefix;
    if (policy) {
        const QString cls = policy->value.trimmed();
        if (cls == QLatin1String(kMm2IdentityPolicy) || cls.endsWith(QLatin1String(".IdentityReplicationPolicy"))) {
            p.naming = NamingPolicy::Identity;
        } else if (cls != QLatin1String(kMm2DefaultPolicy) &&
                   !cls.endsWith(QLatin1String(".DefaultReplicationPolicy"))) {
            m_used.remove(policyKey);
            unmapped(policyKey,
                     QStringLiteral("custom replication policy %1: DefaultReplicationPolicy naming (prefix) used "
                                    "instead")
                         .arg(cls));
        }
    }
    if (p.separator.isEmpty()) {
        unmapped(flowKey(a, b, QStringLiteral("replication.policy.separator")),
                 QStringLiteral("an empty separator; \".\" used"));
        p.separator = QStringLiteral(".");
    }

    // Sync options.
    if (const auto e = flowValue(a, b, QStringLiteral("sync.topic.configs.enabled")))
        p.syncTopicConfigs = javaBool(e->value);
    if (const auto e = flowValue(a, b, QStringLiteral("config.properties.exclude")))
        p.configExclude = splitList(e->value);
    else if (const auto e2 = flowValue(a, b, QStringLiteral("config.properties.blacklist")))
        p.configExclude = splitList(e2->value);
    const QString refreshKey = flowKey(a, b, QStringLiteral("refresh.topics.interval.seconds"));
    if (const auto e = flowValue(a, b, QStringLiteral("refresh.topics.interval.seconds"))) {
        bool ok = false;
        const qint64 seconds = e->value.trimmed().toLongLong(&ok);
        if (!ok || seconds <= 0) {
            m_used.remove(refreshKey);
            unmapped(refreshKey, QStringLiteral("not a positive number of seconds"));
        } else {
            const qint64 ms = qBound(qint64(JobProfile::MinTopicRefreshIntervalMs), seconds * 1000,
                                     qint64(JobProfile::MaxTopicRefreshIntervalMs));
            p.topicRefreshIntervalMs = int(ms);
            if (ms != seconds * 1000)
                m_result.notes
                    << QStringLiteral("%1->%2: topic refresh interval limited to %3 s").arg(a, b).arg(ms / 1000);
        }
    }
    delivery(a, b, &p);

    groups(a, b, &p);
    acls(a, b, &p);

    // Features MirrorDesk does not have: fine when they are switched off.
    static const std::pair<const char *, const char *> missing[] = {
        {"emit.heartbeats.enabled", "MirrorDesk writes no heartbeats topic"},
        {"emit.offset-syncs.enabled",
         "MirrorDesk writes no offset-syncs topic: it translates offsets through its own offset map on the target "
         "(\"offsetMap\")"}};
    for (const auto &[k, why] : missing) {
        const QString key = QString::fromLatin1(k);
        const QString where = flowKey(a, b, key);
        if (const auto e = flowValue(a, b, key); e && javaBool(e->value)) {
            m_used.remove(where);
            unmapped(where, QString::fromLatin1(why));
        }
    }
    if (const auto e = flowValue(a, b, QStringLiteral("refresh.topics.enabled")); e && !javaBool(e->value)) {
        m_used.remove(flowKey(a, b, QStringLiteral("refresh.topics.enabled")));
        unmapped(flowKey(a, b, QStringLiteral("refresh.topics.enabled")),
                 QStringLiteral("MirrorDesk always picks up new matching topics"));
    }
    if (const auto e = flowValue(a, b, QStringLiteral("refresh.groups.enabled")); e && !javaBool(e->value)) {
        m_used.remove(flowKey(a, b, QStringLiteral("refresh.groups.enabled")));
        unmapped(flowKey(a, b, QStringLiteral("refresh.groups.enabled")),
                 QStringLiteral("MirrorDesk always picks up new matching groups (it lists them every group sync "
                                "round)"));
    }
    if (flowValue(a, b, QStringLiteral("refresh.groups.interval.seconds"))) {
        const QString key = flowKey(a, b, QStringLiteral("refresh.groups.interval.seconds"));
        m_used.remove(key);
        unmapped(key, QStringLiteral("no separate interval: MirrorDesk lists the source's groups every group sync "
                                     "round (groupSyncIntervalMs)"));
    }
    return f;
}

void Importer::delivery(const QString &a, const QString &b, JobProfile *p)
{
    const QString workerKey = b + QStringLiteral(".exactly.once.source.support");
    const std::optional<Entry> worker = take(workerKey);
    const QString support = worker ? worker->value.trimmed().toLower() : QString();
    if (worker && support != QLatin1String("enabled") && support != QLatin1String("preparing") &&
        support != QLatin1String("disabled")) {
        m_used.remove(workerKey);
        unmapped(workerKey, QStringLiteral("expected enabled, preparing or disabled"));
    }
    const QString connectorKey = flowKey(a, b, QStringLiteral("exactly.once.support"));
    const std::optional<Entry> connector = flowValue(a, b, QStringLiteral("exactly.once.support"));
    const QString level = connector ? connector->value.trimmed().toLower() : QString();
    if (connector && level != QLatin1String("required") && level != QLatin1String("requested")) {
        m_used.remove(connectorKey);
        unmapped(connectorKey, QStringLiteral("expected required or requested"));
    }
    if (support == QLatin1String("enabled"))
        take(QStringLiteral("dedicated.mode.enable.internal.rest")); // MM2's own part of exactly-once
    if (support == QLatin1String("enabled") || level == QLatin1String("required")) {
        p->delivery = DeliveryGuarantee::ExactlyOnce;
        if (support != QLatin1String("enabled"))
            m_result.notes << QStringLiteral(
                                  "%1->%2: exactly.once.support=required without %2.exactly.once.source.support="
                                  "enabled (MM2 would not start the flow): imported as exactly-once")
                                  .arg(a, b);
    } else if (support == QLatin1String("preparing")) {
        m_result.notes << QStringLiteral(
                              "%1->%2: %2.exactly.once.source.support=preparing (MM2 half way to exactly-once): "
                              "imported as at-least-once")
                              .arg(a, b);
    }
    // MM2's "interval" boundary is MirrorDesk's transaction interval; its default ("poll") has no number to take.
    const std::optional<Entry> boundary = flowValue(a, b, QStringLiteral("transaction.boundary"));
    const QString intervalKey = flowKey(a, b, QStringLiteral("transaction.boundary.interval.ms"));
    const std::optional<Entry> interval = flowValue(a, b, QStringLiteral("transaction.boundary.interval.ms"));
    if (boundary && boundary->value.trimmed().toLower() == QLatin1String("interval") && interval) {
        bool ok = false;
        const qint64 ms = interval->value.trimmed().toLongLong(&ok);
        if (!ok || ms < 0) {
            m_used.remove(intervalKey);
            unmapped(intervalKey, QStringLiteral("not a number of milliseconds"));
        } else {
            p->transactionIntervalMs = int(
                qBound(qint64(JobProfile::MinTransactionIntervalMs), ms, qint64(JobProfile::MaxTransactionIntervalMs)));
            if (p->transactionIntervalMs != ms)
                m_result.notes << QStringLiteral("%1->%2: transaction interval limited to %3 ms")
                                      .arg(a, b)
                                      .arg(p->transactionIntervalMs);
        }
    }
}

QStringList Importer::groupRegexes(const QString &value, QStringList *invalid)
{
    QStringList out;
    for (const QString &item : splitList(value)) {
        if (item.isEmpty())
            continue; // "a,,b": an empty alternative only matches an empty group id
        const QRegularExpression re(item);
        if (!re.isValid()) {
            invalid->append(
                QStringLiteral("\"%1\" (%2 at offset %3)").arg(item, re.errorString()).arg(re.patternErrorOffset()));
            continue;
        }
        out << item;
    }
    return out;
}

std::optional<qint64> Importer::flowSeconds(const QString &a, const QString &b, const QString &key, qint64 mm2Default)
{
    const QString where = flowKey(a, b, key);
    const std::optional<Entry> e = flowValue(a, b, key);
    if (!e)
        return std::nullopt;
    bool ok = false;
    const qint64 seconds = e->value.trimmed().toLongLong(&ok);
    if (!ok || seconds <= 0) {
        m_used.remove(where);
        unmapped(where, QStringLiteral("not a positive number of seconds; MM2's default (%1 s) used").arg(mm2Default));
        return std::nullopt;
    }
    return seconds;
}

void Importer::groups(const QString &a, const QString &b, JobProfile *p)
{
    // Which groups. MM2's DefaultGroupFilter matches each regex against the
    // whole group id, as the profile's groups do: the lists are taken as they
    // are (as topics are), less what MirrorDesk's PCRE cannot compile.
    const QString includeKey = flowKey(a, b, QStringLiteral("groups"));
    const std::optional<Entry> include = flowValue(a, b, QStringLiteral("groups"));
    const std::optional<Entry> exclude = flowValue(a, b, QStringLiteral("groups.exclude"));
    // The deprecated name counts only where groups.exclude is not given (as in MM2).
    const std::optional<Entry> blacklist = exclude ? std::nullopt : flowValue(a, b, QStringLiteral("groups.blacklist"));
    const QString excludeKey =
        flowKey(a, b, exclude ? QStringLiteral("groups.exclude") : QStringLiteral("groups.blacklist"));
    QStringList invalid;
    p->groupsInclude = include ? groupRegexes(include->value, &invalid) : QStringList{QStringLiteral(".*")};
    if (!invalid.isEmpty()) {
        m_used.remove(includeKey);
        unmapped(includeKey,
                 QStringLiteral("invalid regular expression %1: left out, the groups it was to select are not synced "
                                "or checkpointed")
                     .arg(invalid.join(QStringLiteral(", "))));
    }
    invalid.clear();
    if (exclude || blacklist)
        p->groupsExclude = groupRegexes((exclude ? exclude : blacklist)->value, &invalid);
    else
        p->groupsExclude = mm2DefaultGroupExclude();
    if (!invalid.isEmpty()) {
        // Leaving an exclusion out would select groups MM2 leaves alone: select none.
        m_used.remove(excludeKey);
        unmapped(excludeKey, QStringLiteral("invalid regular expression %1: no group of %2->%3 is synced or "
                                            "checkpointed (without it, groups MM2 leaves alone would be)")
                                 .arg(invalid.join(QStringLiteral(", ")), a, b));
        p->groupsInclude.clear();
        p->groupsExclude.clear();
    }

    // What is done with them: MM2 emits checkpoints by default, syncs offsets only when asked.
    const std::optional<Entry> sync = flowValue(a, b, QStringLiteral("sync.group.offsets.enabled"));
    const std::optional<Entry> checkpoints = flowValue(a, b, QStringLiteral("emit.checkpoints.enabled"));
    p->syncGroupOffsets = sync && javaBool(sync->value);
    p->emitCheckpoints = !checkpoints || javaBool(checkpoints->value);
    const std::optional<qint64> syncSeconds =
        flowSeconds(a, b, QStringLiteral("sync.group.offsets.interval.seconds"), kMm2GroupIntervalSeconds);
    const std::optional<qint64> checkpointSeconds =
        flowSeconds(a, b, QStringLiteral("emit.checkpoints.interval.seconds"), kMm2GroupIntervalSeconds);
    const QString offsetSyncsKey = flowKey(a, b, QStringLiteral("emit.offset-syncs.enabled"));
    if (const auto e = flowValue(a, b, QStringLiteral("emit.offset-syncs.enabled"));
        e && !javaBool(e->value) && (p->syncGroupOffsets || p->emitCheckpoints) && !p->groupsInclude.isEmpty()) {
        m_result.notes << QStringLiteral("%1->%2: %3=false: MM2 runs no checkpoint connector without offset syncs, so "
                                         "no group is synced or checkpointed: imported as \"syncGroupOffsets\": false "
                                         "and checkpoints off")
                              .arg(a, b, offsetSyncsKey);
        p->syncGroupOffsets = false;
        p->emitCheckpoints = false;
    }
    if (p->groupsInclude.isEmpty()) {
        // No group: nothing to leave out or checkpoint (and no warning from the profile).
        p->groupsExclude.clear();
        p->emitCheckpoints = false;
    }

    // One interval: MirrorDesk syncs and checkpoints in the same round.
    const qint64 syncS = syncSeconds.value_or(kMm2GroupIntervalSeconds);
    const qint64 checkpointS = checkpointSeconds.value_or(kMm2GroupIntervalSeconds);
    qint64 seconds = syncSeconds ? syncS : checkpointS;
    if (p->syncGroupOffsets && p->emitCheckpoints) {
        seconds = qMin(syncS, checkpointS);
        if (syncS != checkpointS)
            m_result.notes << QStringLiteral("%1->%2: MM2 would sync group offsets every %3 s and emit checkpoints "
                                             "every %4 s; MirrorDesk does both in one round, every %5 s")
                                  .arg(a, b)
                                  .arg(syncS)
                                  .arg(checkpointS)
                                  .arg(seconds);
    } else if (p->syncGroupOffsets) {
        seconds = syncS;
    } else if (p->emitCheckpoints) {
        seconds = checkpointS;
    }
    const qint64 ms =
        qBound(qint64(JobProfile::MinGroupSyncIntervalMs), seconds * 1000, qint64(JobProfile::MaxGroupSyncIntervalMs));
    p->groupSyncIntervalMs = int(ms);
    if (ms != seconds * 1000)
        m_result.notes << QStringLiteral("%1->%2: group sync interval limited to %3 s").arg(a, b).arg(ms / 1000);

    // What MirrorDesk will do because the file said nothing: MM2's defaults, spelled out.
    if (p->groupsInclude.isEmpty() || (!p->syncGroupOffsets && !p->emitCheckpoints))
        return;
    QStringList defaults;
    if (!include)
        defaults << QStringLiteral("groups .*");
    if (!exclude && !blacklist)
        defaults << QStringLiteral("groups.exclude %1").arg(mm2DefaultGroupExclude().join(QStringLiteral(", ")));
    if (!checkpoints)
        defaults << QStringLiteral("checkpoints on (\"checkpoints\": {\"enabled\": true}, to %1 on %2)")
                        .arg(mm2CheckpointsTopic(a, checkpointsSeparator(p->naming, p->separator)), b);
    if (!sync)
        defaults << QStringLiteral("group offsets not written to %1's groups (\"syncGroupOffsets\": false)").arg(b);
    if ((p->syncGroupOffsets ? !syncSeconds : true) && (p->emitCheckpoints ? !checkpointSeconds : true))
        defaults << QStringLiteral("every %1 s").arg(kMm2GroupIntervalSeconds);
    if (!defaults.isEmpty())
        m_result.notes << QStringLiteral("%1->%2: not set in the file, so as MM2 does by default: %3")
                              .arg(a, b, defaults.join(QStringLiteral("; ")));
}

void Importer::acls(const QString &a, const QString &b, JobProfile *p)
{
    const std::optional<Entry> enabled = flowValue(a, b, QStringLiteral("sync.topic.acls.enabled"));
    p->syncAcls = !enabled || javaBool(enabled->value);
    if (!p->syncAcls) {
        const QString intervalKey = flowKey(a, b, QStringLiteral("sync.topic.acls.interval.seconds"));
        if (flowValue(a, b, QStringLiteral("sync.topic.acls.interval.seconds"))) {
            m_used.remove(intervalKey);
            unmapped(intervalKey, QStringLiteral("no effect: ACLs are not synced (sync.topic.acls.enabled=false)"));
        }
        return;
    }
    // MM2 syncs as the safe mode does: no ALLOW WRITE on mirrored topics, ALLOW ALL as READ.
    p->aclSyncMode = MirrorJobSpec::AclSyncMode::Safe;
    const std::optional<qint64> seconds =
        flowSeconds(a, b, QStringLiteral("sync.topic.acls.interval.seconds"), kMm2AclIntervalSeconds);
    const qint64 s = seconds.value_or(kMm2AclIntervalSeconds);
    const qint64 ms =
        qBound(qint64(JobProfile::MinAclSyncIntervalMs), s * 1000, qint64(JobProfile::MaxAclSyncIntervalMs));
    p->aclSyncIntervalMs = int(ms);
    if (ms != s * 1000)
        m_result.notes << QStringLiteral("%1->%2: ACL sync interval limited to %3 s").arg(a, b).arg(ms / 1000);
    if (!p->groupsInclude.isEmpty())
        m_result.notes << QStringLiteral("%1->%2: ACL sync: MirrorDesk also copies the ACLs of the groups it "
                                         "selects (groups.include); MM2 copies those of topics only")
                              .arg(a, b);

    // What MirrorDesk will do because the file said nothing: MM2's defaults, spelled out.
    QStringList defaults;
    if (!enabled)
        defaults << QStringLiteral("ACLs synced to %1 (\"acls\": {\"sync\": true, \"mode\": \"safe\"}: no ALLOW "
                                   "WRITE on the mirrored topics, ALLOW ALL becomes READ)")
                        .arg(b);
    if (!seconds)
        defaults << (enabled ? QStringLiteral("ACL sync every %1 s") : QStringLiteral("every %1 s"))
                        .arg(kMm2AclIntervalSeconds);
    if (!defaults.isEmpty())
        m_result.notes << QStringLiteral("%1->%2: not set in the file, so as MM2 does by default: %3")
                              .arg(a, b, defaults.join(QStringLiteral("; ")));
    // Not an ACL matter, but said once per flow beside it.
    m_result.notes << QStringLiteral("%1->%2: MM2 has no schema sync (it copies records with the source registry's "
                                     "schema ids): schemas.sync stays off; turn it on, with a schemaRegistry on each "
                                     "side, when %2 has a registry of its own")
                          .arg(a, b);
}

void Importer::explainLeftovers()
{
    QSet<QString> flowClusters;
    for (const auto &[a, b] : std::as_const(m_flows))
        flowClusters << a << b;
    static const QRegularExpression flowKeyRe(QStringLiteral("^([^.]+)->([^.]+)\\.(.+)$"));
    for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
        const QString &key = it.key();
        if (m_used.contains(key))
            continue;
        if (m_roleReason.contains(key)) {
            unmapped(key, m_roleReason.value(key));
            continue;
        }
        // The expression needs "->"; most keys have none and skip it.
        if (const QRegularExpressionMatch m =
                key.contains(QLatin1String("->")) ? flowKeyRe.match(key) : QRegularExpressionMatch();
            m.hasMatch()) {
            const QString a = m.captured(1), b = m.captured(2), rest = m.captured(3);
            if (!m_clusters.contains(a) || !m_clusters.contains(b)) {
                unmapped(key, QStringLiteral("flow %1->%2 names a cluster that is not in \"clusters\"").arg(a, b));
            } else if (!m_flows.contains(qMakePair(a, b))) {
                if (rest == QLatin1String("emit.heartbeats.enabled") && !javaBool(it->value))
                    continue; // part of switching the reverse flow off
                unmapped(key, QStringLiteral("flow %1->%2 is not enabled").arg(a, b));
            } else {
                unmapped(key, leftoverReason(rest));
            }
            continue;
        }
        const QString first = key.section(QLatin1Char('.'), 0, 0);
        if (m_clusters.contains(first) && key.contains(QLatin1Char('.'))) {
            if (!flowClusters.contains(first))
                unmapped(key, QStringLiteral("cluster %1 takes part in no enabled flow").arg(first));
            else
                unmapped(key, leftoverReason(key.mid(first.size() + 1)));
            continue;
        }
        if (isFlowGroupKey(key) || isFlowAclKey(key))
            unmapped(key, QStringLiteral("every enabled flow sets its own (A->B.%1)").arg(key));
        else
            unmapped(key, leftoverReason(key));
    }
}

} // namespace md::mm2

namespace md {

Mm2ImportResult importMm2Properties(const QByteArray &data, const QString &fileName)
{
    return mm2::Importer(data, fileName).run();
}

} // namespace md
