#include "engine/admin/AdminClient.h"

#include "engine/schema/RegistryDecoders.h"

#include <functional>
#include <memory>

namespace md {

// Owns the AdminService on the admin thread; requests run there in order.
class AdminWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdminWorker)
public:
    AdminWorker() = default;
    std::unique_ptr<AdminService> service;
    QString createError; // why the last connectTo could not create the service

Q_SIGNALS:
    // An answer to run on the client's thread. A signal, not a call posted to
    // the client: the client may be gone meanwhile (it does not wait for this
    // thread), and a connection ends with its receiver.
    void replied(const std::function<void()> &answer);
};

namespace {
void registerTypes()
{
    static const bool once = [] {
        qRegisterMetaType<ClusterMetadata>("md::ClusterMetadata");
        qRegisterMetaType<QList<ConfigEntry>>("QList<md::ConfigEntry>");
        qRegisterMetaType<QList<ConsumerGroupInfo>>("QList<md::ConsumerGroupInfo>");
        qRegisterMetaType<QList<GroupPartitionOffset>>("QList<md::GroupPartitionOffset>");
        qRegisterMetaType<QList<AclEntry>>("QList<md::AclEntry>");
        qRegisterMetaType<AclRules>("md::AclRules");
        qRegisterMetaType<QList<KafkaMessage>>("QList<md::KafkaMessage>");
        return true;
    }();
    Q_UNUSED(once);
}
} // namespace

AdminClient::AdminClient(QObject *parent) : QObject(parent)
{
    registerTypes();
    m_worker = new AdminWorker;
    m_thread.adopt(m_worker);
    connect(m_worker, &AdminWorker::replied, this, [](const std::function<void()> &answer) { answer(); });
    m_thread.start();
}

AdminClient::~AdminClient()
{
    // Pending requests are dropped; the one running finishes within its timeout,
    // on its thread, without this waiting (WorkerThread).
}

template <typename Call, typename Emit> quint64 AdminClient::request(Operation op, Call call, Emit emit)
{
    const quint64 id = ++m_nextId;
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, id, op, call, emit] {
            std::function<void()> answer;
            if (!w->service) {
                const QString reason =
                    w->createError.isEmpty() ? QStringLiteral("not connected: call connectTo() first") : w->createError;
                answer = [this, id, op, reason] {
                    Q_EMIT requestFailed(id, op, reason, KafkaError::from(RD_KAFKA_RESP_ERR__STATE, reason));
                };
            } else if (auto r = call(*w->service); !r.ok()) {
                answer = [this, id, op, e = r.kafkaError] { Q_EMIT requestFailed(id, op, e.message, e); };
            } else {
                answer = [id, emit, v = std::move(r.value)] { emit(id, v); };
            }
            // Queued to this object: dropped if it is gone by then.
            Q_EMIT w->replied(answer);
        },
        Qt::QueuedConnection);
    return id;
}

quint64 AdminClient::connectTo(const ClusterConfig &config, int timeoutMs)
{
    // Replaces the service first (on the admin thread, in request order).
    m_decoders = std::make_shared<RegistryDecoders>(config.schemaRegistry);
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, config, timeoutMs, decoders = m_decoders] {
            QString error;
            w->service = AdminService::create(config, &error, timeoutMs, decoders);
            w->createError = error;
        },
        Qt::QueuedConnection);
    return request(
        Operation::Connect, [](AdminService &s) { return s.metadata(); },
        [this](quint64 id, const ClusterMetadata &md) { Q_EMIT connected(id, md); });
}

namespace {
// The answer of operations whose success carries no value.
auto doneEmitter(AdminClient *client, AdminClient::Operation op)
{
    return [client, op](quint64 id, Done) { Q_EMIT client->operationDone(id, op); };
}
} // namespace

quint64 AdminClient::createTopic(const NewTopicSpec &spec)
{
    return request(
        Operation::CreateTopic, [spec](AdminService &s) { return s.createTopic(spec); },
        doneEmitter(this, Operation::CreateTopic));
}

quint64 AdminClient::deleteTopic(const QString &topic)
{
    return request(
        Operation::DeleteTopic, [topic](AdminService &s) { return s.deleteTopic(topic); },
        doneEmitter(this, Operation::DeleteTopic));
}

quint64 AdminClient::addPartitions(const QString &topic, int newTotal)
{
    return request(
        Operation::AddPartitions, [topic, newTotal](AdminService &s) { return s.addPartitions(topic, newTotal); },
        doneEmitter(this, Operation::AddPartitions));
}

quint64 AdminClient::alterTopicConfigs(const QString &topic, const QMap<QString, std::optional<QString>> &changes)
{
    return request(
        Operation::AlterConfigs, [topic, changes](AdminService &s) { return s.alterTopicConfigs(topic, changes); },
        doneEmitter(this, Operation::AlterConfigs));
}

quint64 AdminClient::deleteGroup(const QString &groupId)
{
    return request(
        Operation::DeleteGroup, [groupId](AdminService &s) { return s.deleteGroup(groupId); },
        doneEmitter(this, Operation::DeleteGroup));
}

quint64 AdminClient::describeTopicConfigs(const QString &topic)
{
    return request(
        Operation::DescribeConfigs, [topic](AdminService &s) { return s.describeTopicConfigs(topic); },
        [this, topic](quint64 id, const QList<ConfigEntry> &v) { Q_EMIT topicConfigsReady(id, topic, v); });
}

quint64 AdminClient::listConsumerGroups()
{
    return request(
        Operation::ListGroups, [](AdminService &s) { return s.consumerGroups(); },
        [this](quint64 id, const QList<ConsumerGroupInfo> &v) { Q_EMIT groupsReady(id, v); });
}

quint64 AdminClient::groupOffsets(const QString &groupId)
{
    return request(
        Operation::GroupOffsets, [groupId](AdminService &s) { return s.groupOffsets(groupId); },
        [this, groupId](quint64 id, const QList<GroupPartitionOffset> &v) {
            Q_EMIT groupOffsetsReady(id, groupId, v);
        });
}

quint64 AdminClient::resetGroupOffsets(const QString &groupId, const OffsetReset &reset)
{
    return request(
        Operation::ResetOffsets, [groupId, reset](AdminService &s) { return s.resetGroupOffsets(groupId, reset); },
        // The new positions, as groupOffsets would show them.
        [this, groupId](quint64 id, const QList<GroupPartitionOffset> &v) {
            Q_EMIT operationDone(id, Operation::ResetOffsets);
            Q_EMIT groupOffsetsReady(id, groupId, v);
        });
}

quint64 AdminClient::listAcls()
{
    return request(
        Operation::ListAcls, [](AdminService &s) { return s.listAcls(); },
        [this](quint64 id, const QList<AclEntry> &v) { Q_EMIT aclsReady(id, v); });
}

quint64 AdminClient::createAcls(const QList<AclEntry> &bindings)
{
    return request(
        Operation::CreateAcls, [bindings](AdminService &s) { return s.createAcls(bindings); },
        doneEmitter(this, Operation::CreateAcls));
}

quint64 AdminClient::aclRules()
{
    return request(
        Operation::AclRules, [](AdminService &s) { return s.aclRules(); },
        [this](quint64 id, const AclRules &v) { Q_EMIT aclRulesReady(id, v); });
}

quint64 AdminClient::deleteAcls(const QList<AclEntry> &bindings)
{
    return request(
        Operation::DeleteAcls, [bindings](AdminService &s) { return s.deleteAcls(bindings); },
        [this](quint64 id, int) { Q_EMIT operationDone(id, Operation::DeleteAcls); });
}

quint64 AdminClient::readMessages(const MessageQuery &query)
{
    return request(
        Operation::ReadMessages, [query](AdminService &s) { return s.readMessages(query); },
        [this](quint64 id, const QList<KafkaMessage> &v) { Q_EMIT messagesReady(id, v); });
}

} // namespace md

#include "AdminClient.moc"
