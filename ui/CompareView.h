#pragma once

#include "ClusterDiff.h"
#include "MirrorJobSpec.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QThread;
class QToolButton;
class QTreeView;

namespace md {

class ClusterDiffModel;

// What CompareView fetches of both clusters for one job.
struct CompareInputs {
    ClusterMetadata source; // with watermarks
    ClusterMetadata target;
    TopicConfigMap sourceConfigs; // by source topic name
    TopicConfigMap targetConfigs; // by target topic name
    QString error;                // why there is nothing to compare (a cluster unreachable, ...)
    QStringList warnings;         // partial trouble: configs of some topics unreadable
};

// The "Compare clusters" view of a job: its topics on the source and on the target under
// its naming policy, side by side (ClusterDiff), as a tree of topics and partitions with
// a summary line, a differences-only filter, a text filter and refresh.
class CompareView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CompareView)
public:
    // Config reads are one request per topic per side; beyond this many topics they are skipped.
    static constexpr int maxConfigTopics = 500;

    explicit CompareView(const MirrorJobSpec &spec, QWidget *parent = nullptr);
    ~CompareView() override; // waits for a fetch under way (bounded by its timeouts)

    // Blocking: both clusters' metadata with watermarks, and the configs of the job's topics.
    // For a worker thread, never the UI thread.
    static CompareInputs fetchInputs(const MirrorJobSpec &spec, int timeoutMs = 10000);

    const MirrorJobSpec &spec() const { return m_spec; }
    ClusterDiffModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    const ClusterDiff &diff() const;
    QString summaryText() const;
    QString errorText() const;
    bool isBusy() const { return m_thread != nullptr; }
    void setDifferencesOnly(bool on);

public Q_SLOTS:
    // Fetches both sides again on a worker thread; the tree updates when both are in.
    // A refresh asked for while one runs is done right after it.
    void refresh();
    // A fetch runs (or another was asked for while one ran, and follows it).
    bool isRefreshing() const { return m_thread != nullptr || m_refreshAgain; }

Q_SIGNALS:
    // A refresh ended (the diff is updated, or errorText() says why not).
    void refreshed();

private:
    void apply(const CompareInputs &inputs);

    MirrorJobSpec m_spec;
    ClusterDiffModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTreeView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_error = nullptr;
    QCheckBox *m_differencesOnly = nullptr;
    QLineEdit *m_filter = nullptr;
    QToolButton *m_refresh = nullptr;
    QThread *m_thread = nullptr;
    bool m_refreshAgain = false;
};

} // namespace md
