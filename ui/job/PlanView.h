#pragma once

#include "engine/mirror/JobProgress.h"
#include "engine/mirror/MirrorPlan.h"
#include "engine/schema/RegistryCompare.h"
#include "model/acl/AclSyncPreview.h"
#include "model/profile/JobProfile.h"
#include "model/schemasync/SchemaSyncPreview.h"

#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace md {

class ProgressTableModel;

// The live plan of a job being edited: both clusters are probed in the
// background (inBackground, debounced; a result that a newer edit made stale is
// dropped by the generation counter, one closed view drops it too), then
// MirrorPlan says which source topics match, what each is called on the
// target, which are created with how many partitions, which replication factor
// and which configs (the engine's own rule, TargetTopicRule), and which are
// left out and why. Then, in a second background task, readJobProgress says per source
// partition where the job will start and why (committed progress always wins)
// and how many records that copies; the plan is shown without waiting for it.
// Beside it, the mirrored topics' schemas and, when the profile syncs ACLs, the
// bindings a round of ACL sync would create and delete now (readAclSyncPreview).
class PlanView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanView)
public:
    static constexpr int DefaultDebounceMs = 700;
    static constexpr int ProbeTimeoutMs = 8000;
    // The table's columns. ConfigsColumn: for a created topic, the configs it gets
    // (text "name=value, ..."; tooltip one per line; Qt::UserRole: a QVariantMap).
    enum TableColumn {
        SourceTopicColumn,
        PartitionsColumn,
        TargetTopicColumn,
        ActionColumn,
        NoteColumn,
        ConfigsColumn,
        ColumnCount
    };

    // Closing the view while a probe runs returns at once; the probe's answer is dropped.
    explicit PlanView(QWidget *parent = nullptr);

    // A new version of the profile: probes again after the debounce.
    void setProfile(const JobProfile &profile, const ReferenceResolver &resolver);
    // The profile has errors: no probe, say why.
    void setInvalid(const QString &reason);
    void refreshNow();
    void setDebounceMs(int ms);

    enum class State { Idle, Waiting, Probing, Ready, Unreachable, Invalid };
    State state() const { return m_state; }
    QString statusText() const;
    const MirrorPlan &plan() const { return m_plan; }
    QTableWidget *table() const { return m_table; }
    // Where each partition starts (the "Start positions" tab).
    const JobProgress &progress() const { return m_progress; }
    ProgressTableModel *startsModel() const { return m_startsModel; }
    QString startsText() const;
    // The mirrored topics' subjects on both registries (the "Schemas" tab),
    // read in a third background task once the plan is shown.
    const RegistryComparison &schemas() const { return m_schemas; }
    QListWidget *schemasList() const { return m_schemasList; }
    // What ACL sync would create and delete on the target now (the "ACL sync"
    // tab), read in a fourth background task once the plan is shown; Off,
    // without a request, when the profile does not sync ACLs.
    const AclSyncPreview &aclSync() const { return m_aclSync; }
    QListWidget *aclSyncList() const { return m_aclSyncList; }
    // What a round of schema sync would register now (readSchemaSyncPreview).
    const SchemaSyncPreview &schemaSync() const { return m_schemaSync; }
    QListWidget *schemaSyncList() const { return m_schemaSyncList; }

Q_SIGNALS:
    void planUpdated();     // a fresh result (plan, unreachable or invalid) is shown
    void progressUpdated(); // fresh start positions (or why there are none) are shown
    void schemasUpdated();  // a fresh registry comparison is shown
    void aclSyncUpdated();
    void schemaSyncUpdated(); // a fresh schema sync preview (or why there is none) is shown         // a fresh ACL sync
                              // preview (or why there is none) is shown
    void resetProgressRequested(); // the Start positions tab's Reset Progress button

private:
    struct Result;
    void startProbe();
    void readProgress(const MirrorJobSpec &spec);
    void apply(quint64 generation, const Result &result);
    void applyProgress(quint64 generation, const JobProgress &progress);
    void readSchemas(const MirrorJobSpec &spec);
    void applySchemas(quint64 generation, const RegistryComparison &schemas);
    void readAclSync(const MirrorJobSpec &spec);
    void applyAclSync(quint64 generation, const AclSyncPreview &preview);
    void clearAclSync(const QString &why);
    void readSchemaSync(const MirrorJobSpec &spec);
    void applySchemaSync(quint64 generation, const SchemaSyncPreview &preview);
    void clearSchemaSync(const QString &why);
    void clearProgress(const QString &why);
    void setConfigsCell(int row, const TopicPlanEntry &entry);
    void setState(State state, const QString &text);

    QLabel *m_status;
    QTableWidget *m_table;
    QTabWidget *m_views;
    QLabel *m_startsStatus;
    ProgressTableModel *m_startsModel;
    QSortFilterProxyModel *m_startsProxy;
    QTableView *m_starts;
    JobProgress m_progress;
    QListWidget *m_schemasList;
    RegistryComparison m_schemas;
    QListWidget *m_aclSyncList;
    AclSyncPreview m_aclSync;
    QListWidget *m_schemaSyncList;
    SchemaSyncPreview m_schemaSync;
    QTimer *m_debounce;
    JobProfile m_profile;
    ReferenceResolver m_resolver;
    bool m_haveProfile = false;
    quint64 m_generation = 0;    // bumped by every edit: an answer of an older one is stale
    bool m_probeRunning = false; // one probe at a time
    State m_state = State::Idle;
    MirrorPlan m_plan;
};

} // namespace md
