#include "AdminClient.h"

#include <memory>

namespace md {

// Owns the AdminService on the admin thread; requests run there in order.
class AdminWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdminWorker)
public:
    AdminWorker() = default;
    std::unique_ptr<AdminService> service;
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
        qRegisterMetaType<QList<KafkaMessage>>("QList<md::KafkaMessage>");
        return true;
    }();
    Q_UNUSED(once);
}
} // namespace

AdminClient::AdminClient(QObject *parent) : QObject(parent)
{
    registerTypes();
    m_thread.setObjectName(QStringLiteral("cluster-admin-ops"));
    m_worker = new AdminWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

AdminClient::~AdminClient()
{
    // Pending requests are dropped; the one running finishes within its timeout.
    m_thread.quit();
    m_thread.wait();
}

// Runs fn(service) on the admin thread; fn returns a callable that is then run
// on this object's thread to emit the answer (dropped if this object is gone).
template<typename Fn>
quint64 AdminClient::post(Fn fn)
{
    const quint64 id = ++m_nextId;
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, id, fn] {
            auto answer = fn(w, id);
            QMetaObject::invokeMethod(this, std::move(answer), Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return id;
}

#define MD_NEED_SERVICE(op)                                                                              \
    if (!w->service)                                                                                     \
        return std::function<void()>([this, id] {                                                        \
            Q_EMIT requestFailed(id, op, QStringLiteral("not connected: call connectTo() first"));        \
        });

quint64 AdminClient::connectTo(const ClusterConfig &config, int timeoutMs)
{
    return post([this, config, timeoutMs](AdminWorker *w, quint64 id) -> std::function<void()> {
        QString error;
        w->service = AdminService::create(config, &error, timeoutMs);
        if (!w->service)
            return [this, id, error] { Q_EMIT requestFailed(id, Operation::Connect, error); };
        AdminResult<ClusterMetadata> r = w->service->metadata();
        if (!r.ok())
            return [this, id, e = r.error] { Q_EMIT requestFailed(id, Operation::Connect, e); };
        return [this, id, md = r.value] { Q_EMIT connected(id, md); };
    });
}

// Operations whose success carries no value.
#define MD_DONE_OP(op, call)                                                                              \
    post([=, this](AdminWorker *w, quint64 id) -> std::function<void()> {                                \
        MD_NEED_SERVICE(op)                                                                              \
        AdminResult<Done> r = w->service->call;                                                          \
        if (!r.ok())                                                                                     \
            return [this, id, e = r.error] { Q_EMIT requestFailed(id, op, e); };                        \
        return [this, id] { Q_EMIT operationDone(id, op); };                                             \
    })

quint64 AdminClient::createTopic(const NewTopicSpec &spec)
{
    return MD_DONE_OP(Operation::CreateTopic, createTopic(spec));
}

quint64 AdminClient::deleteTopic(const QString &topic)
{
    return MD_DONE_OP(Operation::DeleteTopic, deleteTopic(topic));
}

quint64 AdminClient::addPartitions(const QString &topic, int newTotal)
{
    return MD_DONE_OP(Operation::AddPartitions, addPartitions(topic, newTotal));
}

quint64 AdminClient::alterTopicConfigs(const QString &topic, const QMap<QString, std::optional<QString>> &changes)
{
    return MD_DONE_OP(Operation::AlterConfigs, alterTopicConfigs(topic, changes));
}

quint64 AdminClient::deleteGroup(const QString &groupId)
{
    return MD_DONE_OP(Operation::DeleteGroup, deleteGroup(groupId));
}

quint64 AdminClient::describeTopicConfigs(const QString &topic)
{
    return post([this, topic](AdminWorker *w, quint64 id) -> std::function<void()> {
        MD_NEED_SERVICE(Operation::DescribeConfigs)
        auto r = w->service->describeTopicConfigs(topic);
        if (!r.ok())
            return [this, id, e = r.error] { Q_EMIT requestFailed(id, Operation::DescribeConfigs, e); };
        return [this, id, topic, v = r.value] { Q_EMIT topicConfigsReady(id, topic, v); };
    });
}

quint64 AdminClient::listConsumerGroups()
{
    return post([this](AdminWorker *w, quint64 id) -> std::function<void()> {
        MD_NEED_SERVICE(Operation::ListGroups)
        auto r = w->service->consumerGroups();
        if (!r.ok())
            return [this, id, e = r.error] { Q_EMIT requestFailed(id, Operation::ListGroups, e); };
        return [this, id, v = r.value] { Q_EMIT groupsReady(id, v); };
    });
}

quint64 AdminClient::groupOffsets(const QString &groupId)
{
    return post([this, groupId](AdminWorker *w, quint64 id) -> std::function<void()> {
        MD_NEED_SERVICE(Operation::GroupOffsets)
        auto r = w->service->groupOffsets(groupId);
        if (!r.ok())
            return [this, id, e = r.error] { Q_EMIT requestFailed(id, Operation::GroupOffsets, e); };
        return [this, id, groupId, v = r.value] { Q_EMIT groupOffsetsReady(id, groupId, v); };
    });
}

quint64 AdminClient::resetGroupOffsets(const QString &groupId, const OffsetReset &reset)
{
    return post([this, groupId, reset](AdminWorker *w, quint64 id) -> std::function<void()> {
        MD_NEED_SERVICE(Operation::ResetOffsets)
        auto r = w->service->resetGroupOffsets(groupId, reset);
        if (!r.ok())
            return [this, id, e = r.error] { Q_EMIT requestFailed(id, Operation::ResetOffsets, e); };
        // The new positions, as groupOffsets would show them.
        return [this, id, groupId, v = r.value] {
            Q_EMIT operationDone(id, Operation::ResetOffsets);
            Q_EMIT groupOffsetsReady(id, groupId, v);
        };
    });
}

quint64 AdminClient::listAcls()
{
    return post([this](AdminWorker *w, quint64 id) -> std::function<void()> {
        MD_NEED_SERVICE(Operation::ListAcls)
        auto r = w->service->listAcls();
        if (!r.ok())
            return [this, id, e = r.error] { Q_EMIT requestFailed(id, Operation::ListAcls, e); };
        return [this, id, v = r.value] { Q_EMIT aclsReady(id, v); };
    });
}

quint64 AdminClient::readMessages(const MessageQuery &query)
{
    return post([this, query](AdminWorker *w, quint64 id) -> std::function<void()> {
        MD_NEED_SERVICE(Operation::ReadMessages)
        auto r = w->service->readMessages(query);
        if (!r.ok())
            return [this, id, e = r.error] { Q_EMIT requestFailed(id, Operation::ReadMessages, e); };
        return [this, id, v = r.value] { Q_EMIT messagesReady(id, v); };
    });
}

} // namespace md

#include "AdminClient.moc"
