#include "ui/cluster/MessagesPanel.h"

#include "ui/widgets/FlowLayout.h"

#include "model/tables/MessageSortProxy.h"
#include "ui/cluster/MessageFeed.h"
#include "ui/cluster/MessageSearchBar.h"
#include "ui/dialogs/CopyMessagesDialog.h"
#include "ui/widgets/TableViews.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStringListModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace md {

MessagesPanel::MessagesPanel(AdminClient *admin, QWidget *parent)
    : QWidget(parent), m_admin(admin), m_model(new MessageTableModel(this)), m_proxy(new MessageSortProxy(this)),
      m_topicList(new QStringListModel(this)), m_topic(new QComboBox(this)), m_partition(new QComboBox(this)),
      m_mode(new QComboBox(this)), m_startStack(new QStackedWidget(this)), m_offset(new QLineEdit(this)),
      m_time(new QDateTimeEdit(this)), m_count(new QSpinBox(this)), m_read(new QPushButton(tr("Read"), this)),
      m_display(new QComboBox(this)), m_view(new QTableView(this)), m_detail(new QPlainTextEdit(this)),
      m_detailHex(new QPlainTextEdit(this)), m_searchBar(new MessageSearchBar(this)),
      m_feed(new MessageFeed(m_model, this)), m_copyText(new QPushButton(tr("Copy"), this)),
      m_copyJson(new QPushButton(tr("Copy as JSON"), this)),
      m_exportJson(new QPushButton(tr("Export JSON\u2026"), this)),
      m_exportCsv(new QPushButton(tr("Export CSV\u2026"), this)),
      m_copyOther(new QPushButton(tr("Copy to other cluster\u2026"), this)),
      m_showOther(new QAction(tr("Show on the Other Cluster"), this)), m_showOtherButton(new QToolButton(this)),
      m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("messagesPanel"));
    m_topic->setModel(m_topicList);
    m_topic->setEditable(true);
    m_topic->setInsertPolicy(QComboBox::NoInsert);
    m_topic->setMinimumContentsLength(12);
    m_topic->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_topic->lineEdit()->setPlaceholderText(tr("topic"));
    m_topic->setObjectName(QStringLiteral("messageTopic"));
    m_partition->addItem(tr("All partitions"), -1);
    m_mode->addItem(tr("Latest N"), int(MessageQuery::Mode::LatestN));
    m_mode->addItem(tr("From offset"), int(MessageQuery::Mode::FromOffset));
    m_mode->addItem(tr("From time (UTC)"), int(MessageQuery::Mode::FromTimestamp));
    m_offset->setText(QStringLiteral("0"));
    m_offset->setPlaceholderText(tr("offset"));
    m_time->setTimeSpec(Qt::UTC);
    m_time->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    m_time->setDateTime(QDateTime::currentDateTimeUtc().addSecs(-3600));
    m_time->setCalendarPopup(true);
    m_startStack->addWidget(new QWidget(m_startStack));
    m_startStack->addWidget(m_offset);
    m_startStack->addWidget(m_time);
    m_count->setRange(1, 100000);
    m_count->setValue(100);
    m_count->setToolTip(tr("At most this many messages"));
    m_display->addItem(tr("Text"), int(MessageTableModel::DisplayMode::Text));
    m_display->addItem(tr("JSON"), int(MessageTableModel::DisplayMode::Json));
    m_display->addItem(tr("Hex"), int(MessageTableModel::DisplayMode::Hex));
    m_display->addItem(tr("Decoded"), int(MessageTableModel::DisplayMode::Decoded));
    m_display->setItemData(m_display->count() - 1,
                           tr("Records in the schema registry's wire format as their decoded JSON; "
                              "a record that does not decode as its bytes, the reason in its tooltip"),
                           Qt::ToolTipRole);

    m_proxy->setSourceModel(m_model);
    m_view->setObjectName(QStringLiteral("messages"));
    m_view->setModel(m_proxy);
    setUpTableView(m_view);
    m_showOther->setObjectName(QStringLiteral("showOnOtherCluster"));
    m_showOther->setEnabled(false);
    m_showOther->setToolTip(tr("Select a record first"));
    m_showOtherButton->setDefaultAction(m_showOther); // follows the action's state and tooltip
    m_showOtherButton->setObjectName(QStringLiteral("showOnOtherButton"));
    m_view->addAction(m_showOther);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_detail->setReadOnly(true);
    m_detail->setObjectName(QStringLiteral("messageDetail"));
    m_detail->setPlaceholderText(tr("Select a message to see it whole"));
    m_detailHex->setReadOnly(true);
    m_detailHex->setObjectName(QStringLiteral("messageDetailHex"));
    m_detailHex->setPlaceholderText(tr("Its bytes in hex"));
    m_detailHex->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_detailHex->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setObjectName(QStringLiteral("messageStatus"));

    // Two query rows and a wrapping button row: the tab fits a pane half a laptop screen wide.
    auto *query = new QHBoxLayout;
    query->addWidget(m_topic, 1);
    query->addWidget(m_partition);
    auto *start = new QHBoxLayout;
    start->addWidget(m_mode);
    start->addWidget(m_startStack, 1);
    start->addWidget(new QLabel(tr("max"), this));
    start->addWidget(m_count);
    start->addWidget(m_read);
    auto *actions = new FlowLayout;
    actions->addWidget(new QLabel(tr("Show as"), this));
    actions->addWidget(m_display);
    for (QPushButton *b : {m_copyText, m_copyJson, m_exportJson, m_exportCsv, m_copyOther})
        actions->addWidget(b);
    actions->addWidget(m_showOtherButton);
    auto *split = new QSplitter(Qt::Vertical, this);
    auto *detail = new QSplitter(Qt::Horizontal, this);
    detail->addWidget(m_detail);
    detail->addWidget(m_detailHex);
    split->addWidget(m_view);
    split->addWidget(detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    // The table first: the viewer starts at a few lines (the splitter gives it more on demand).
    const int line = fontMetrics().lineSpacing();
    for (QPlainTextEdit *e : {m_detail, m_detailHex})
        e->setMinimumHeight(3 * line);
    split->setSizes({12 * line, 4 * line});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(query);
    layout->addLayout(start);
    layout->addWidget(m_searchBar);
    layout->addLayout(actions);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_read, &QPushButton::clicked, this, qOverload<>(&MessagesPanel::read));
    connect(m_topic->lineEdit(), &QLineEdit::returnPressed, this, qOverload<>(&MessagesPanel::read));
    connect(m_topic, &QComboBox::currentTextChanged, this, &MessagesPanel::updatePartitions);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &MessagesPanel::updateMode);
    connect(m_display, &QComboBox::currentIndexChanged, this, [this] {
        m_model->setDisplayMode(MessageTableModel::DisplayMode(m_display->currentData().toInt()));
        updateDetail();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateDetail();
        updateButtons();
        Q_EMIT currentMessageChanged();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        updateButtons();
        Q_EMIT currentMessageChanged();
    });
    connect(m_copyText, &QPushButton::clicked, this, [this] { copySelected(false); });
    connect(m_copyJson, &QPushButton::clicked, this, [this] { copySelected(true); });
    connect(m_exportJson, &QPushButton::clicked, this, [this] { askExport(false); });
    connect(m_exportCsv, &QPushButton::clicked, this, [this] { askExport(true); });
    connect(m_copyOther, &QPushButton::clicked, this, [this] { openCopyDialog(); });

    connect(m_searchBar, &MessageSearchBar::searchRequested, this, &MessagesPanel::search);
    connect(m_searchBar, &MessageSearchBar::matchesFound, m_feed, &MessageFeed::add);
    // The result is told once every match is in the table.
    connect(m_feed, &MessageFeed::drained, this, [this] {
        if (m_searchResult)
            finishSearch(*std::exchange(m_searchResult, std::nullopt));
    });
    connect(m_searchBar, &MessageSearchBar::progressChanged, this, [this](const QString &text) {
        if (m_searchBar->isSearching())
            showStatus(text, false);
    });
    connect(m_searchBar, &MessageSearchBar::finished, this, [this](const SearchResult &result) {
        if (m_feed->isEmpty())
            finishSearch(result);
        else
            m_searchResult = result;
    });
    connect(m_admin, &AdminClient::messagesReady, this, &MessagesPanel::onMessages);
    connect(m_admin, &AdminClient::requestFailed, this, &MessagesPanel::onFailed);
    updateMode();
    updateButtons();
}

MessagesPanel::~MessagesPanel() = default;

void MessagesPanel::setClusters(const ClusterConfig &own, const ClusterConfig &other)
{
    // A cluster with a registry shows its records decoded unless the user picks otherwise.
    const bool registryChanged = own.schemaRegistry.isSet() != m_own.schemaRegistry.isSet();
    m_own = own;
    m_other = other;
    const auto shown = MessageTableModel::DisplayMode(m_display->currentData().toInt());
    if (registryChanged && own.schemaRegistry.isSet())
        setDisplayMode(MessageTableModel::DisplayMode::Decoded);
    else if (registryChanged && shown == MessageTableModel::DisplayMode::Decoded)
        setDisplayMode(MessageTableModel::DisplayMode::Text);
    updateButtons();
}

void MessagesPanel::setMetadata(const ClusterMetadata &metadata)
{
    m_metadata = metadata;
    QStringList names;
    for (const TopicInfo &t : metadata.topics)
        names.append(t.name);
    // Refreshes mostly bring the same names: compare with what the box was given
    // last time instead of reading back thousands of items on the UI thread, and
    // hand a changed list over as one model reset, not one insert per topic.
    if (names != m_topicNames) {
        const QString current = m_topic->currentText();
        const QSignalBlocker block(m_topic);
        m_topicNames = names;
        m_topicList->setStringList(names);
        m_topic->setCurrentText(current);
    }
    updatePartitions();
}

void MessagesPanel::setOtherMetadata(const ClusterMetadata &metadata)
{
    // Kept as it came (shared, no copy): the topic list is only needed when a copy
    // dialog opens, not on every refresh of a cluster with thousands of topics.
    m_otherMetadata = metadata;
}

void MessagesPanel::updatePartitions()
{
    const TopicInfo *t = m_metadata.topic(m_topic->currentText().trimmed());
    const int count = t ? int(t->partitions.size()) : 0;
    if (m_partition->count() == count + 1)
        return;
    const int current = m_partition->currentData().toInt();
    const QSignalBlocker block(m_partition);
    m_partition->clear();
    m_partition->addItem(tr("All partitions"), -1);
    for (int p = 0; p < count; ++p)
        m_partition->addItem(tr("Partition %1").arg(p), p);
    const int index = m_partition->findData(current);
    m_partition->setCurrentIndex(index >= 0 ? index : 0);
}

void MessagesPanel::updateMode()
{
    const auto mode = MessageQuery::Mode(m_mode->currentData().toInt());
    m_startStack->setCurrentIndex(mode == MessageQuery::Mode::FromOffset      ? 1
                                  : mode == MessageQuery::Mode::FromTimestamp ? 2
                                                                              : 0);
}

MessageQuery MessagesPanel::queryFromControls(QString *error) const
{
    MessageQuery q;
    q.topic = m_topic->currentText().trimmed();
    q.partition = m_partition->currentData().toInt();
    q.mode = MessageQuery::Mode(m_mode->currentData().toInt());
    q.maxMessages = m_count->value();
    if (q.topic.isEmpty()) {
        *error = tr("Choose a topic to read");
        return q;
    }
    if (q.mode == MessageQuery::Mode::FromOffset) {
        bool ok = false;
        q.offset = m_offset->text().trimmed().toLongLong(&ok);
        if (!ok || q.offset < 0)
            *error = tr("Offset: \"%1\" is not an offset (a whole number, 0 or more)").arg(m_offset->text());
    }
    if (q.mode == MessageQuery::Mode::FromTimestamp)
        q.timestampMs = m_time->dateTime().toMSecsSinceEpoch();
    return q;
}

void MessagesPanel::read()
{
    QString error;
    const MessageQuery q = queryFromControls(&error);
    if (!error.isEmpty()) {
        showStatus(error, true);
        Q_EMIT readFailed(error);
        return;
    }
    read(q);
}

void MessagesPanel::read(const MessageQuery &query)
{
    m_selectWhenShown.reset(); // a read of its own replaces openAt's
    // ... and a search's matches still on their way.
    m_searchBar->abandon();
    m_feed->clear();
    m_searchResult.reset();
    // A newer read replaces the pending one: its answer will be ignored.
    m_readRequest = m_admin->readMessages(query);
    m_read->setText(tr("Reading\u2026"));
    showStatus(tr("Reading %1%2\u2026")
                   .arg(query.topic, query.partition >= 0 ? QStringLiteral(" [%1]").arg(query.partition) : QString()),
               false);
}

void MessagesPanel::search()
{
    QString error;
    const MessageQuery q = queryFromControls(&error);
    const std::optional<MessageFilter> filter = error.isEmpty() ? m_searchBar->filter(&error) : std::nullopt;
    if (!filter) {
        showStatus(error, true);
        SearchResult failed;
        failed.error = error;
        Q_EMIT searchFinished(failed);
        return;
    }
    if (error.isEmpty() && m_own.bootstrap.isEmpty())
        error = tr("This cluster is not connected: nothing to search");
    if (!error.isEmpty()) {
        showStatus(error, true);
        SearchResult failed;
        failed.error = error;
        Q_EMIT searchFinished(failed);
        return;
    }
    SearchSpec spec;
    spec.cluster = m_own;
    spec.topic = q.topic;
    spec.partition = q.partition;
    spec.maxMatches = q.maxMessages;
    spec.filter = *filter;
    // The pane's decoders when they are this registry's: a schema fetched for a read is not fetched again.
    if (const std::shared_ptr<RegistryDecoders> decoders = m_admin->registryDecoders();
        decoders && decoders->config() == m_own.schemaRegistry)
        spec.decoders = decoders;
    switch (q.mode) {
    case MessageQuery::Mode::LatestN: spec.start = SearchSpec::Start::EndBackwards; break;
    case MessageQuery::Mode::FromOffset:
        spec.start = SearchSpec::Start::Offset;
        spec.offset = q.offset;
        break;
    case MessageQuery::Mode::FromTimestamp:
        spec.start = SearchSpec::Start::Timestamp;
        spec.timestampMs = q.timestampMs;
        break;
    }
    m_selectWhenShown.reset();
    m_readRequest = 0; // a read still running is answered into nothing
    m_read->setText(tr("Read"));
    m_feed->clear();
    m_searchResult.reset();
    m_model->setMessages({});
    m_searchBar->start(spec);
    showStatus(tr("Searching %1%2\u2026")
                   .arg(spec.topic, spec.partition >= 0 ? QStringLiteral(" [%1]").arg(spec.partition) : QString()),
               false);
}

void MessagesPanel::finishSearch(const SearchResult &result)
{
    showStatus(result.summary(), !result.ok());
    Q_EMIT searchFinished(result);
}

void MessagesPanel::onMessages(quint64 id, const QList<KafkaMessage> &messages)
{
    if (id != m_readRequest)
        return;
    m_readRequest = 0;
    m_read->setText(tr("Read"));
    m_model->setMessages(messages);
    showStatus(messages.isEmpty() ? tr("No messages in that range")
                                  : tr("%n message(s)", nullptr, int(messages.size())),
               false);
    selectPending();
    updateDetail();
    Q_EMIT messagesShown(int(messages.size()));
}

void MessagesPanel::onFailed(quint64 id, AdminClient::Operation, const QString &error)
{
    if (id != m_readRequest)
        return;
    m_readRequest = 0;
    m_read->setText(tr("Read"));
    showStatus(error, true);
    Q_EMIT readFailed(error);
}

void MessagesPanel::openAt(const QString &topic, int partition, qint64 offset)
{
    // The controls show what is read, so Read again repeats it.
    m_topic->setCurrentText(topic);
    if (m_partition->findData(partition) < 0) // metadata not refreshed yet: the partition exists, we read it
        m_partition->addItem(tr("Partition %1").arg(partition), partition);
    m_partition->setCurrentIndex(m_partition->findData(partition));
    m_mode->setCurrentIndex(m_mode->findData(int(MessageQuery::Mode::FromOffset)));
    m_offset->setText(QString::number(offset));
    MessageQuery q;
    q.topic = topic;
    q.partition = partition;
    q.mode = MessageQuery::Mode::FromOffset;
    q.offset = offset;
    q.maxMessages = m_count->value();
    read(q);
    m_selectWhenShown = qMakePair(partition, offset);
}

void MessagesPanel::selectPending()
{
    if (!m_selectWhenShown)
        return;
    const auto [partition, offset] = *std::exchange(m_selectWhenShown, std::nullopt);
    const QList<KafkaMessage> &messages = m_model->messages();
    for (qsizetype row = 0; row < messages.size(); ++row) {
        if (messages[row].partition != partition || messages[row].offset != offset)
            continue;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(int(row), 0));
        m_view->selectionModel()->setCurrentIndex(index,
                                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->scrollTo(index);
        showStatus(tr("Showing offset %1 of %2 [%3]").arg(offset).arg(m_topic->currentText()).arg(partition), false);
        return;
    }
    showStatus(tr("Offset %1 of %2 [%3] is not on this cluster any more (deleted or compacted away); showing what "
                  "follows it")
                   .arg(offset)
                   .arg(m_topic->currentText())
                   .arg(partition),
               true);
}

const KafkaMessage *MessagesPanel::currentMessage() const
{
    const QList<int> rows = selectedRows();
    return rows.isEmpty() ? nullptr : m_model->messageAt(rows.first());
}

void MessagesPanel::setDisplayMode(MessageTableModel::DisplayMode mode)
{
    m_display->setCurrentIndex(m_display->findData(int(mode)));
}

QList<int> MessagesPanel::selectedRows() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QList<int> out;
    for (const QModelIndex &r : rows)
        out.append(m_proxy->mapToSource(r).row());
    return out;
}

void MessagesPanel::updateDetail()
{
    const QList<int> rows = selectedRows();
    const KafkaMessage *m = rows.isEmpty() ? nullptr : m_model->messageAt(rows.first());
    // The record whole: JSON pretty-printed (other bytes as text) or, when the
    // table shows them decoded, the decoded key and value with their schema's
    // id, type, subject and version; its hex beside.
    const auto mode = m_model->displayMode() == MessageTableModel::DisplayMode::Decoded
                          ? MessageTableModel::DisplayMode::Decoded
                          : MessageTableModel::DisplayMode::Json;
    m_detail->setPlainText(m ? MessageTableModel::describe(*m, mode) : QString());
    m_detailHex->setPlainText(m ? MessageTableModel::describe(*m, MessageTableModel::DisplayMode::Hex) : QString());
}

void MessagesPanel::updateButtons()
{
    const bool any = m_model->rowCount() > 0;
    const bool selected = !m_view->selectionModel()->selectedRows().isEmpty();
    m_copyText->setEnabled(selected);
    m_copyJson->setEnabled(selected);
    m_exportJson->setEnabled(any);
    m_exportCsv->setEnabled(any);
    m_copyOther->setEnabled(!m_other.bootstrap.isEmpty());
    m_copyOther->setToolTip(m_other.bootstrap.isEmpty()
                                ? tr("The other cluster is not connected")
                                : tr("Copy the selected messages (or, with one partition chosen and nothing selected, "
                                     "an offset range) to a topic on the other cluster"));
}

void MessagesPanel::showStatus(const QString &text, bool error)
{
    m_status->setStyleSheet(error ? QStringLiteral("color: #c01c28;") : QString());
    m_status->setText(text);
}

QString MessagesPanel::statusText() const
{
    return m_status->text();
}

void MessagesPanel::copySelected(bool asJson)
{
    const QList<int> rows = selectedRows();
    if (rows.isEmpty())
        return;
    QString text;
    if (asJson) {
        if (rows.size() == 1) {
            text = QString::fromUtf8(QJsonDocument(MessageTableModel::toJson(*m_model->messageAt(rows.first())))
                                         .toJson(QJsonDocument::Indented));
        } else {
            QJsonArray array;
            for (int r : rows)
                array.append(MessageTableModel::toJson(*m_model->messageAt(r)));
            text = QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented));
        }
    } else {
        QStringList parts;
        for (int r : rows)
            parts.append(MessageTableModel::describe(*m_model->messageAt(r), m_model->displayMode()));
        text = parts.join(QLatin1Char('\n'));
    }
    QGuiApplication::clipboard()->setText(text);
    showStatus(tr("%n message(s) copied to the clipboard", nullptr, int(rows.size())), false);
}

bool MessagesPanel::exportMessages(const QString &path, bool csv, QString *error)
{
    const QList<int> rows = selectedRows();
    // Decoded values go into the CSV when the table shows them (JSON has them whenever they decoded).
    const bool decoded = m_model->displayMode() == MessageTableModel::DisplayMode::Decoded;
    const bool ok = csv ? m_model->exportCsv(path, error, rows, decoded) : m_model->exportJson(path, error, rows);
    if (ok)
        showStatus(tr("%n message(s) written to %1", nullptr, int(rows.isEmpty() ? m_model->rowCount() : rows.size()))
                       .arg(path),
                   false);
    else
        showStatus(*error, true);
    return ok;
}

void MessagesPanel::askExport(bool csv)
{
    const QString filter = csv ? tr("CSV files (*.csv)") : tr("JSON files (*.json)");
    const QString suggested = (m_topic->currentText().isEmpty() ? QStringLiteral("messages") : m_topic->currentText()) +
                              (csv ? QStringLiteral(".csv") : QStringLiteral(".json"));
    const QString path = QFileDialog::getSaveFileName(
        this, csv ? tr("Export messages as CSV") : tr("Export messages as JSON"), suggested, filter);
    if (path.isEmpty())
        return;
    QString error;
    exportMessages(path, csv, &error);
}

CopyMessagesDialog *MessagesPanel::openCopyDialog()
{
    if (m_other.bootstrap.isEmpty()) {
        showStatus(tr("The other cluster is not connected: nothing to copy to"), true);
        return nullptr;
    }
    CopySpec spec;
    spec.source = m_own;
    spec.target = m_other;
    const QList<int> rows = selectedRows();
    if (!rows.isEmpty()) {
        for (int r : rows)
            spec.messages.append(*m_model->messageAt(r));
        spec.targetTopic = spec.messages.first().topic;
    } else {
        const int partition = m_partition->currentData().toInt();
        const QString topic = m_topic->currentText().trimmed();
        if (partition < 0 || topic.isEmpty()) {
            showStatus(tr("Select messages to copy, or choose one partition to copy an offset range"), true);
            return nullptr;
        }
        spec.sourceTopic = topic;
        spec.sourcePartition = partition;
        spec.targetTopic = topic;
        // Default range: what is shown of that partition, else all of it.
        qint64 first = -1, last = -1;
        for (const KafkaMessage &m : m_model->messages()) {
            if (m.topic != topic || m.partition != partition)
                continue;
            first = first < 0 ? m.offset : qMin(first, m.offset);
            last = qMax(last, m.offset);
        }
        spec.firstOffset = qMax<qint64>(0, first);
        spec.lastOffset = last;
    }
    QStringList otherTopics;
    for (const TopicInfo &t : std::as_const(m_otherMetadata.topics)) {
        if (!t.internal)
            otherTopics.append(t.name);
    }
    auto *dialog = new CopyMessagesDialog(spec, otherTopics, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

} // namespace md
