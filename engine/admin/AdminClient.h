#pragma once

#include "engine/admin/AdminService.h"
#include "engine/core/WorkerThread.h"

#include <QObject>

namespace md {

class AdminWorker;

// The UI-thread face of AdminService, in ClusterClient's pattern: one admin
// thread per cluster runs the blocking calls in order; each request method
// returns a request id at once, and the answer comes back as a queued signal
// carrying that id: a data signal or operationDone on success, requestFailed
// with the error in plain words otherwise.
class AdminClient final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdminClient)
public:
    enum class Operation {
        Connect,
        DescribeConfigs,
        CreateTopic,
        DeleteTopic,
        AddPartitions,
        AlterConfigs,
        ListGroups,
        GroupOffsets,
        ResetOffsets,
        DeleteGroup,
        ListAcls,
        CreateAcls,
        DeleteAcls,
        AclRules,
        ReadMessages
    };
    Q_ENUM(Operation)

    explicit AdminClient(QObject *parent = nullptr);
    ~AdminClient() override;

    // (Re)creates the service for these settings and checks the connection
    // (answer: connected with the metadata, or requestFailed).
    quint64 connectTo(const ClusterConfig &config, int timeoutMs = 10000);
    // The connected cluster's registry decoders, shared with its service so
    // that a search started beside it (SearchSpec::decoders) fetches no schema
    // twice; null before connectTo.
    std::shared_ptr<RegistryDecoders> registryDecoders() const { return m_decoders; }

    quint64 describeTopicConfigs(const QString &topic);
    quint64 createTopic(const NewTopicSpec &spec);
    quint64 deleteTopic(const QString &topic);
    quint64 addPartitions(const QString &topic, int newTotal);
    quint64 alterTopicConfigs(const QString &topic, const QMap<QString, std::optional<QString>> &changes);
    quint64 listConsumerGroups();
    quint64 groupOffsets(const QString &groupId);
    quint64 resetGroupOffsets(const QString &groupId, const OffsetReset &reset);
    quint64 deleteGroup(const QString &groupId);
    quint64 listAcls();
    // AdminService::createAcls / deleteAcls; operationDone or requestFailed
    // with the broker's reason per refused binding.
    quint64 createAcls(const QList<AclEntry> &bindings);
    quint64 deleteAcls(const QList<AclEntry> &bindings);
    quint64 aclRules(); // answer: aclRulesReady
    quint64 readMessages(const MessageQuery &query);

Q_SIGNALS:
    void connected(quint64 id, const md::ClusterMetadata &metadata);
    void operationDone(quint64 id, md::AdminClient::Operation op);
    // `error` in plain words; `failure` with the code and kind to decide on.
    void requestFailed(quint64 id, md::AdminClient::Operation op, const QString &error, const md::KafkaError &failure);
    void topicConfigsReady(quint64 id, const QString &topic, const QList<md::ConfigEntry> &configs);
    void groupsReady(quint64 id, const QList<md::ConsumerGroupInfo> &groups);
    void groupOffsetsReady(quint64 id, const QString &groupId, const QList<md::GroupPartitionOffset> &offsets);
    void aclsReady(quint64 id, const QList<md::AclEntry> &acls);
    void aclRulesReady(quint64 id, const md::AclRules &rules);
    void messagesReady(quint64 id, const QList<md::KafkaMessage> &messages);

private:
    // Runs call(service) on the admin thread; back on this object's thread,
    // emit(id, value) on success or requestFailed with the error.
    template <typename Call, typename Emit> quint64 request(Operation op, Call call, Emit emit);

    WorkerThread m_thread{QStringLiteral("cluster-admin-ops")};
    AdminWorker *m_worker = nullptr; // lives on m_thread, deleted there when it ends
    quint64 m_nextId = 0;
    std::shared_ptr<RegistryDecoders> m_decoders;
};

} // namespace md
