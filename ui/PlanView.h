#pragma once

#include "JobProfile.h"
#include "MirrorPlan.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QLabel;
class QTableWidget;
class QTimer;

namespace md {

// The live plan of a job being edited: both clusters are probed on a worker
// thread (debounced; a result that a newer edit made stale is dropped), then
// MirrorPlan says which source topics match, what each is called on the
// target, which are created with how many partitions, which replication factor
// and which configs (the engine's own rule, TargetTopicRule), and which are
// left out and why.
class PlanView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanView)
public:
    static constexpr int DefaultDebounceMs = 700;
    static constexpr int ProbeTimeoutMs = 8000;
    // The table's columns. ConfigsColumn: for a created topic, the configs it gets
    // (text "name=value, ..."; tooltip one per line; Qt::UserRole: a QVariantMap).
    enum TableColumn { SourceTopicColumn, PartitionsColumn, TargetTopicColumn, ActionColumn, NoteColumn,
                       ConfigsColumn, ColumnCount };

    explicit PlanView(QWidget *parent = nullptr);
    ~PlanView() override;

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

Q_SIGNALS:
    void planUpdated(); // a fresh result (plan, unreachable or invalid) is shown

private:
    struct Result;
    void startProbe();
    void apply(quint64 generation, const Result &result);
    void setConfigsCell(int row, const TopicPlanEntry &entry);
    void setState(State state, const QString &text);

    QLabel *m_status;
    QTableWidget *m_table;
    QTimer *m_debounce;
    JobProfile m_profile;
    ReferenceResolver m_resolver;
    bool m_haveProfile = false;
    quint64 m_generation = 0;     // bumped by every edit
    bool m_probeRunning = false; // one probe at a time
    State m_state = State::Idle;
    MirrorPlan m_plan;
    // Tells a worker that outlived this view not to post its result.
    std::shared_ptr<std::atomic<bool>> m_alive;
};

} // namespace md
