#include "ui/dialogs/ResetProgressDialog.h"

#include "model/tables/ProgressTableModel.h"
#include "ui/widgets/Background.h"

#include <QButtonGroup>
#include <QCoreApplication>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace md {

namespace {

const QString kErrorStyle = QStringLiteral("color: #b00020;");
const QString kWarnStyle = QStringLiteral("color: #8a5a00;");

bool sameRequest(const ResetRequest &a, const ResetRequest &b)
{
    return a.to == b.to && a.topicPattern == b.topicPattern &&
           (a.to != ResetRequest::To::Timestamp || a.timestamp == b.timestamp);
}

// Records between the new position and the committed one: copied before, copied again.
qint64 copiedAgain(const JobProgress &plan)
{
    qint64 again = 0;
    for (const PartitionStart &p : plan.partitions) {
        if (p.committed >= 0 && p.start < p.committed)
            again += std::min(p.committed, p.end) - p.start;
    }
    return again;
}

bool validPattern(const QString &pattern)
{
    return pattern.isEmpty() || QRegularExpression(QRegularExpression::anchoredPattern(pattern)).isValid();
}

} // namespace

ResetProgressDialog::ResetProgressDialog(const MirrorJobSpec &spec, QWidget *parent)
    : QDialog(parent), m_spec(spec), m_to(new QButtonGroup(this)), m_earliest(new QRadioButton(tr("&Earliest"), this)),
      m_latest(new QRadioButton(tr("&Latest"), this)), m_timestamp(new QRadioButton(tr("At a &time:"), this)),
      m_time(new QDateTimeEdit(this)), m_topics(new QLineEdit(this)), m_topicsError(new QLabel(this)),
      m_preview(new QPushButton(tr("&Preview"), this)), m_busyBar(new QProgressBar(this)),
      m_model(new ProgressTableModel(ProgressTableModel::Mode::Reset, this)), m_proxy(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)), m_summary(new QLabel(this)), m_blocked(new QLabel(this)),
      m_status(new QLabel(this)), m_reset(new QPushButton(tr("&Reset Progress\u2026"), this))
{
    setObjectName(QStringLiteral("resetProgressDialog"));
    setWindowTitle(tr("Reset Progress \u2014 %1").arg(spec.name));
    resize(860, 560);

    auto *intro = new QLabel(this);
    intro->setObjectName(QStringLiteral("resetIntro"));
    intro->setWordWrap(true);
    intro->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const QString source = (spec.source.alias.isEmpty() ? QString() : spec.source.alias + QLatin1Char(' ')) +
                           QLatin1Char('(') + spec.source.bootstrap + QLatin1Char(')');
    intro->setText(tr("A partition with committed progress always resumes there. Resetting rewrites the committed "
                      "offsets of the job's group <b>%1</b> on the source %2, so the next run starts the chosen "
                      "partitions from the new position.")
                       .arg(QStringLiteral("<span style=\"white-space:nowrap\">") + spec.groupId.toHtmlEscaped() +
                                QStringLiteral("</span>"),
                            source.toHtmlEscaped()));

    m_earliest->setObjectName(QStringLiteral("resetEarliest"));
    m_latest->setObjectName(QStringLiteral("resetLatest"));
    m_timestamp->setObjectName(QStringLiteral("resetTimestamp"));
    m_earliest->setToolTip(tr("The log start: copy everything the source still holds"));
    m_latest->setToolTip(tr("The end: copy only records written from now on"));
    m_timestamp->setToolTip(tr("The first record at or after this time (the end when there is none)"));
    m_to->addButton(m_earliest, int(ResetRequest::To::Earliest));
    m_to->addButton(m_latest, int(ResetRequest::To::Latest));
    m_to->addButton(m_timestamp, int(ResetRequest::To::Timestamp));
    m_earliest->setChecked(true);
    m_time->setObjectName(QStringLiteral("resetTime"));
    m_time->setTimeSpec(Qt::UTC);
    m_time->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    m_time->setCalendarPopup(true);
    QDateTime anHourAgo = QDateTime::currentDateTimeUtc().addSecs(-3600);
    anHourAgo.setTime(QTime(anHourAgo.time().hour(), anHourAgo.time().minute()));
    m_time->setDateTime(anHourAgo);
    m_time->setEnabled(false);

    auto *toBox = new QVBoxLayout;
    toBox->setSpacing(2);
    toBox->addWidget(m_earliest);
    toBox->addWidget(m_latest);
    auto *timeRow = new QHBoxLayout;
    timeRow->addWidget(m_timestamp);
    timeRow->addWidget(m_time);
    timeRow->addStretch();
    toBox->addLayout(timeRow);

    m_topics->setObjectName(QStringLiteral("resetTopics"));
    m_topics->setPlaceholderText(tr("every topic of the job"));
    m_topics->setToolTip(tr("A regular expression matched against whole source topic names; "
                            "only the job's topics that match are reset"));
    m_topics->setClearButtonEnabled(true);
    m_topicsError->setObjectName(QStringLiteral("resetTopicsError"));
    m_topicsError->setStyleSheet(kErrorStyle);
    m_topicsError->hide();
    auto *topicsBox = new QVBoxLayout;
    topicsBox->setSpacing(2);
    topicsBox->addWidget(m_topics);
    topicsBox->addWidget(m_topicsError);

    auto *form = new QFormLayout;
    form->addRow(tr("Reset to:"), toBox);
    form->addRow(tr("&Topics:"), topicsBox);
    qobject_cast<QLabel *>(form->labelForField(topicsBox))->setBuddy(m_topics);

    m_preview->setObjectName(QStringLiteral("previewReset"));
    m_preview->setToolTip(tr("Read the group's committed offsets and the partitions' offsets; nothing is written"));
    m_busyBar->setObjectName(QStringLiteral("resetBusy"));
    m_busyBar->setRange(0, 0);
    m_busyBar->setMaximumHeight(m_preview->sizeHint().height() / 2);
    m_busyBar->setMaximumWidth(160);
    m_busyBar->setTextVisible(false);
    m_busyBar->hide();
    auto *previewRow = new QHBoxLayout;
    previewRow->addWidget(m_preview);
    previewRow->addWidget(m_busyBar);
    previewRow->addStretch();

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ProgressTableModel::SortRole);
    m_table->setObjectName(QStringLiteral("resetTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the plan's order (topic, partition) until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ProgressTableModel::TopicColumn, QHeaderView::Stretch);

    m_summary->setObjectName(QStringLiteral("resetSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_blocked->setObjectName(QStringLiteral("resetBlocked"));
    m_blocked->setWordWrap(true);
    m_blocked->setStyleSheet(kWarnStyle);
    m_blocked->hide();
    m_status->setObjectName(QStringLiteral("resetStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_reset->setObjectName(QStringLiteral("applyReset"));
    m_reset->setAutoDefault(false);
    m_preview->setAutoDefault(true);
    m_preview->setDefault(true);
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_reset, QDialogButtonBox::ActionRole);
    QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
    close->setAutoDefault(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addLayout(previewRow);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_blocked);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(m_to, &QButtonGroup::idToggled, this, [this](int, bool checked) {
        if (checked)
            optionsChanged();
    });
    connect(m_time, &QDateTimeEdit::dateTimeChanged, this, &ResetProgressDialog::optionsChanged);
    connect(m_topics, &QLineEdit::textChanged, this, &ResetProgressDialog::optionsChanged);
    connect(m_preview, &QPushButton::clicked, this, &ResetProgressDialog::preview);
    connect(m_reset, &QPushButton::clicked, this, &ResetProgressDialog::reset);

    m_flow.attach(this, m_status, m_busyBar, [this] { updateButtons(); });
    m_flow.setStatus(tr("Choose where the job restarts, then Preview: nothing is written before Reset Progress."),
                     false);
    updateButtons();
}

ResetProgressDialog::~ResetProgressDialog() = default;

ResetRequest ResetProgressDialog::request() const
{
    ResetRequest r;
    r.to = ResetRequest::To(m_to->checkedId());
    if (r.to == ResetRequest::To::Timestamp)
        r.timestamp = m_time->dateTime().toUTC();
    r.topicPattern = m_topics->text().trimmed();
    return r;
}

QString ResetProgressDialog::summaryText() const
{
    return m_summary->text();
}

QString ResetProgressDialog::statusText() const
{
    return m_flow.statusText();
}

void ResetProgressDialog::setBlockedReason(const QString &reason)
{
    m_blockedReason = reason;
    m_blocked->setText(tr("Reset is unavailable: %1").arg(reason));
    m_blocked->setVisible(!reason.isEmpty());
    updateButtons();
}

QString ResetProgressDialog::targetText(const ResetRequest &r) const
{
    switch (r.to) {
    case ResetRequest::To::Earliest: return tr("the earliest offsets");
    case ResetRequest::To::Latest: return tr("the latest offsets");
    case ResetRequest::To::Timestamp:
        return tr("the first records at or after %1")
            .arg(r.timestamp.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")));
    }
    return {};
}

void ResetProgressDialog::optionsChanged()
{
    m_time->setEnabled(m_timestamp->isChecked());
    const bool valid = validPattern(m_topics->text().trimmed());
    m_topicsError->setText(valid ? QString() : tr("Not a valid regular expression."));
    m_topicsError->setVisible(!valid);
    // A preview stands for the options it was made with; going back to them makes it current again.
    m_flow.setStale(!sameRequest(request(), m_planRequest),
                    tr("The options changed since this preview: Preview again before resetting."));
}

void ResetProgressDialog::updateButtons()
{
    const bool validTopics = validPattern(m_topics->text().trimmed());
    m_preview->setEnabled(!m_flow.isBusy() && validTopics);
    QString why;
    if (!m_blockedReason.isEmpty())
        why = m_blockedReason;
    else if (m_flow.isBusy())
        why = tr("Waiting for the cluster");
    else if (!m_flow.isCurrent())
        why = tr("Preview first: Reset writes exactly what the preview shows");
    else if (!m_plan.ok)
        why = tr("The preview failed");
    else if (m_plan.partitions.isEmpty())
        why = tr("No partition to reset");
    m_reset->setEnabled(why.isEmpty());
    m_reset->setToolTip(why.isEmpty() ? tr("Write the previewed positions as the group's committed offsets") : why);
}

void ResetProgressDialog::preview()
{
    if (m_flow.isBusy() || !validPattern(m_topics->text().trimmed()))
        return;
    const ResetRequest req = request();
    m_planRequest = req;
    const quint64 generation = m_flow.beginPreview(tr("Reading the progress of group %1\u2026").arg(m_spec.groupId));
    const MirrorJobSpec spec = m_spec;
    inBackground<JobProgress>(
        this, [spec, req] { return planReset(spec, req, TimeoutMs); },
        [this, generation](const JobProgress &plan) { showPlan(generation, plan); });
}

void ResetProgressDialog::showPlan(quint64 generation, const JobProgress &plan)
{
    bool afterReset = false;
    if (!m_flow.finishPreview(generation, &afterReset))
        return;
    m_plan = plan;
    m_flow.setStale(!sameRequest(request(), m_planRequest), {}); // edited while it was read
    if (!plan.ok) {
        m_model->clear();
        m_summary->clear();
        m_flow.setStatus(tr("Cannot read the progress: %1").arg(plan.error), true);
        updateButtons();
        Q_EMIT previewFinished(false);
        return;
    }
    m_model->setPartitions(plan.partitions);
    // The total first and bold: it is what a user scans for.
    const QString total = describeTotal(plan);
    const qsizetype cut = total.indexOf(QLatin1Char(';'));
    QString summary = QStringLiteral("<b>") + total.left(cut).toHtmlEscaped() + QStringLiteral("</b>");
    if (const qint64 again = copiedAgain(plan); again > 0)
        summary += tr(" (%1 of them copied before)").arg(formatOffset(again));
    if (cut >= 0)
        summary += total.mid(cut).toHtmlEscaped();
    QString group = describeGroup(plan);
    group[0] = group[0].toUpper();
    summary += QStringLiteral("<br>") + group.toHtmlEscaped();
    if (plan.groupActive())
        summary += QStringLiteral("<br><span style=\"%1\">%2</span>")
                       .arg(kWarnStyle, tr("The group has active members: a reset is refused until every instance "
                                           "of the job has stopped."));
    m_summary->setText(summary);
    if (!afterReset) {
        if (plan.partitions.isEmpty())
            m_flow.setStatus(m_planRequest.topicPattern.isEmpty()
                                 ? tr("The job selects no source topic: nothing to reset.")
                                 : tr("No topic of the job matches \u201c%1\u201d.").arg(m_planRequest.topicPattern),
                             false);
        else if (m_flow.isStale())
            m_flow.setStatus(tr("The options changed since this preview: Preview again before resetting."), false);
        else
            m_flow.setStatus(tr("Preview of a reset to %1: nothing is written before Reset Progress.")
                                 .arg(targetText(m_planRequest)),
                             false);
    }
    updateButtons();
    Q_EMIT previewFinished(true);
}

void ResetProgressDialog::reset()
{
    if (!m_reset->isEnabled())
        return;
    const qint64 again = copiedAgain(m_plan);
    const qsizetype n = m_plan.partitions.size();
    QString text =
        tr("Reset the progress of \u201c%1\u201d to %2?").arg(m_spec.name, targetText(m_planRequest)) +
        QStringLiteral("\n\n") +
        (n == 1 ? tr("The group %1 gets a new committed offset for 1 partition.").arg(m_plan.groupId)
                : tr("The group %1 gets new committed offsets for %2 partitions.").arg(m_plan.groupId).arg(n)) +
        QLatin1Char(' ') +
        tr("The job's next run copies %1 records from there.").arg(formatOffset(m_plan.totalToCopy()));
    if (again > 0)
        text +=
            QLatin1Char(' ') + tr("%1 of them were copied before and reach the target again.").arg(formatOffset(again));
    if (!m_flow.confirm(tr("Reset Progress"), text, tr("Reset Progress")))
        return;
    m_flow.beginApply(tr("Writing the new offsets of group %1\u2026").arg(m_plan.groupId));
    const MirrorJobSpec spec = m_spec;
    const JobProgress plan = m_plan;
    inBackground<ResetOutcome>(
        this, [spec, plan] { return applyReset(spec, plan, TimeoutMs); },
        [this](const ResetOutcome &outcome) { showOutcome(outcome); });
}

void ResetProgressDialog::showOutcome(const ResetOutcome &outcome)
{
    if (!outcome.ok) {
        m_flow.setBusy(false);
        // The engine's words, which say "refused: ..." when the group has members.
        static const QString refused = QStringLiteral("refused: ");
        const QString message = outcome.error.startsWith(refused)
                                    ? tr("Reset refused: %1").arg(outcome.error.mid(refused.size()))
                                    : tr("Reset failed: %1").arg(outcome.error);
        m_flow.setStatus(message, true);
        Q_EMIT resetFinished(false, message);
        return;
    }
    const QString message =
        outcome.partitionsWritten == 1
            ? tr("Reset done: 1 partition of group %1 has its new committed offset.").arg(m_plan.groupId)
            : tr("Reset done: %1 partitions of group %2 have their new committed offsets.")
                  .arg(outcome.partitionsWritten)
                  .arg(m_plan.groupId);
    m_flow.finishApply();
    m_flow.setStatus(message, false);
    Q_EMIT resetFinished(true, message);
    preview(); // read back what the group holds now; the message stays
}

} // namespace md
