#pragma once

#include "engine/admin/AdminClient.h"
#include "engine/query/MessageSearch.h"
#include "model/tables/MessageTableModel.h"

#include <QWidget>

#include <optional>

class QAction;
class QComboBox;
class QStringListModel;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace md {

// The "Messages" tab of a cluster pane: reads a topic (or one partition) from
// an offset, a time or the latest N through the pane's AdminClient (never on
// the UI thread), shows partition, offset, timestamp, key, value and headers as
// text, pretty JSON, hex or decoded by the cluster's schema registry (the
// default when it has one); copies a message (text or JSON), exports what is
// shown to JSON or CSV, and copies the selected messages or an offset range to
// a topic on the other cluster (CopyMessagesDialog). The search bar filters
// what is read (MessageSearchBar), and the record viewer shows the selected
// record whole, as text or pretty JSON beside hex. "Show on the Other
// Cluster" (context menu and button) is enabled and carried out by
// OtherSideLookup, which knows the jobs; the panel only offers the action and
// opens a record when asked (openAt).
class MessagesPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessagesPanel)
public:
    explicit MessagesPanel(AdminClient *admin, QWidget *parent = nullptr);
    ~MessagesPanel() override;

    // This pane's cluster (source of a range copy) and the other pane's (the copy target).
    void setClusters(const ClusterConfig &own, const ClusterConfig &other);
    // Topic names and partition counts for the pickers.
    void setMetadata(const ClusterMetadata &metadata);
    void setOtherMetadata(const ClusterMetadata &metadata);

    // Reads with the controls' settings / with an explicit query (answer: messagesShown or readFailed).
    void read();
    void read(const MessageQuery &query);
    bool isReading() const { return m_readRequest != 0; }
    // Searches with the search bar's filter, from the start the controls give
    // ("Latest N": from the end backwards), at most "max" matches (answer:
    // searchFinished). Matches stream into the table.
    void search();
    class MessageSearchBar *searchBar() const { return m_searchBar; }

    // Reads `topic` [partition] from `offset` and selects the record at that offset
    // once shown (the status line says so when it is not there any more).
    void openAt(const QString &topic, int partition, qint64 offset);
    // The first selected message; null when none is.
    const KafkaMessage *currentMessage() const;
    // "Show on the Other Cluster": its state and tooltip are OtherSideLookup's.
    QAction *showOnOtherAction() const { return m_showOther; }
    QToolButton *showOnOtherButton() const { return m_showOtherButton; }
    // The status line below the table.
    void showStatus(const QString &text, bool error);

    void setDisplayMode(MessageTableModel::DisplayMode mode);
    // The current message (or selection) to the clipboard: as shown, or as JSON.
    void copySelected(bool asJson);
    // Writes the shown (selected, if any) messages; the buttons ask for the path first.
    bool exportMessages(const QString &path, bool csv, QString *error);
    // Opens the copy dialog for the selected messages (or, with none selected,
    // the selected partition's offset range). Returns it (non-modal, deleted on close).
    class CopyMessagesDialog *openCopyDialog();

    MessageTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QComboBox *topicBox() const { return m_topic; }
    QComboBox *partitionBox() const { return m_partition; }
    QComboBox *modeBox() const { return m_mode; }
    QLineEdit *offsetEdit() const { return m_offset; }
    QDateTimeEdit *timeEdit() const { return m_time; }
    QSpinBox *countBox() const { return m_count; }
    QPushButton *readButton() const { return m_read; }
    QPushButton *copyToOtherButton() const { return m_copyOther; }
    QComboBox *displayBox() const { return m_display; }
    QPlainTextEdit *detailView() const { return m_detail; }
    QPlainTextEdit *detailHexView() const { return m_detailHex; }
    QString statusText() const;
    QList<int> selectedRows() const; // model rows, in view order

Q_SIGNALS:
    void messagesShown(int count);
    void readFailed(const QString &error);
    void searchFinished(const md::SearchResult &result);
    // The selection changed, or the messages shown did.
    void currentMessageChanged();

private:
    void onMessages(quint64 id, const QList<KafkaMessage> &messages);
    void finishSearch(const SearchResult &result);
    void onFailed(quint64 id, AdminClient::Operation op, const QString &error);
    void updatePartitions();
    void updateMode();
    void updateDetail();
    void updateButtons();
    void selectPending();
    void askExport(bool csv);
    MessageQuery queryFromControls(QString *error) const;

    AdminClient *m_admin;
    MessageTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    ClusterConfig m_own;
    ClusterConfig m_other;
    ClusterMetadata m_metadata;
    ClusterMetadata m_otherMetadata; // the other cluster, for the copy dialog
    QStringListModel *m_topicList;   // the topic box's items
    QStringList m_topicNames;        // what m_topicList was last given
    QComboBox *m_topic;
    QComboBox *m_partition;
    QComboBox *m_mode;
    QStackedWidget *m_startStack;
    QLineEdit *m_offset;
    QDateTimeEdit *m_time;
    QSpinBox *m_count;
    QPushButton *m_read;
    QComboBox *m_display;
    QTableView *m_view;
    QPlainTextEdit *m_detail;
    QPlainTextEdit *m_detailHex;
    class MessageSearchBar *m_searchBar;
    class MessageFeed *m_feed;                  // matches into the table, a slice per turn
    std::optional<SearchResult> m_searchResult; // told once the feed has drained
    QPushButton *m_copyText;
    QPushButton *m_copyJson;
    QPushButton *m_exportJson;
    QPushButton *m_exportCsv;
    QPushButton *m_copyOther;
    QAction *m_showOther;
    QToolButton *m_showOtherButton;
    QLabel *m_status;
    quint64 m_readRequest = 0;
    std::optional<QPair<int, qint64>> m_selectWhenShown; // openAt's partition and offset
};

} // namespace md
