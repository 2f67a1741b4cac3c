#pragma once

#include "engine/mirror/MirrorJobSpec.h"

#include <QList>
#include <QObject>

#include <functional>

namespace md {

class ClusterPane;

// "Show on the Other Cluster" of both panes' message browsers: finds the job
// of the job list that copies the selected record's topic between the two
// clusters shown, reads its offset map off the UI thread (inBackground) and
// opens the record's copy (or original) in the other pane. A record the map
// cannot place is only explained, in the pane's status line.
class OtherSideLookup final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OtherSideLookup)
public:
    using JobsProvider = std::function<QList<MirrorJobSpec>()>;
    OtherSideLookup(ClusterPane *first, ClusterPane *second, JobsProvider jobs, QObject *parent = nullptr);
    ~OtherSideLookup() override;

    // The jobs or the clusters changed: both actions' state and tooltip again.
    void update();
    // What the action does for `pane`'s selected record.
    void showOnOther(ClusterPane *pane);

Q_SIGNALS:
    // A lookup ended: the other pane reads the record (shown), or `message` says why not.
    void lookupFinished(bool shown, const QString &message);
    // The other pane shows the record now: the window brings that pane forward.
    void paneShown(md::ClusterPane *pane);

private:
    struct Answer;
    void updateAction(ClusterPane *pane);
    void finish(ClusterPane *pane, const Answer &answer);
    ClusterPane *otherOf(const ClusterPane *pane) const { return pane == m_first ? m_second : m_first; }

    ClusterPane *m_first;
    ClusterPane *m_second;
    JobsProvider m_jobs;
    quint64 m_generation = 0; // a newer lookup makes an older answer stale
};

} // namespace md
