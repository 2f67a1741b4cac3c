#pragma once

#include "engine/acl/Acl.h"
#include "engine/admin/KeyedRecords.h"

#include <QList>
#include <QString>

namespace md {

class AdminService;

// The bindings a job's ACL sync created, kept in a compacted one-partition
// topic on the target (aclSyncRecordsTopicOf): the key is the binding
// (aclKey), the value the binding as JSON, a tombstone once it is deleted.
// Every instance of a job and every restart read the same record, so a
// binding the operator made is never taken for one the job made.
class AclSyncRecords final {
public:
    AclSyncRecords(ClusterConfig target, QString topic);
    ~AclSyncRecords();
    AclSyncRecords(const AclSyncRecords &) = delete;
    AclSyncRecords &operator=(const AclSyncRecords &) = delete;

    const QString &topic() const { return m_records.topic(); }
    // Every binding recorded as made; an absent topic records none. False with *error.
    bool load(AdminService &target, QList<AclEntry> *made, QString *error);
    // Records bindings as made (`made` true) or as gone, creating the topic when
    // it is missing; waits for the acknowledgements. False with *error naming the topic.
    bool write(AdminService &target, const QList<AclEntry> &bindings, bool made, QString *error);

private:
    KeyedRecords m_records;
};

} // namespace md
