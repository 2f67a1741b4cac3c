#include "ui/cluster/MessageSearchBar.h"

#include "ui/widgets/FlowLayout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace md {

namespace {

QString count(qint64 n)
{
    return QLocale(QLocale::English).toString(qlonglong(n));
}

void setUpTimeEdit(QDateTimeEdit *edit, const QDateTime &at)
{
    edit->setTimeSpec(Qt::UTC);
    edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    edit->setDateTime(at);
    edit->setCalendarPopup(true);
}

} // namespace

MessageSearchBar::MessageSearchBar(QWidget *parent)
    : QWidget(parent), m_field(new QComboBox(this)), m_header(new QLineEdit(this)), m_match(new QComboBox(this)),
      m_text(new QLineEdit(this)), m_case(new QCheckBox(tr("Match case"), this)),
      m_fromOn(new QCheckBox(tr("From"), this)), m_from(new QDateTimeEdit(this)), m_toOn(new QCheckBox(tr("to"), this)),
      m_to(new QDateTimeEdit(this)), m_search(new QPushButton(tr("Search"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_progress(new QProgressBar(this)),
      m_optionsButton(new QToolButton(this)), m_options(new QWidget(this))
{
    setObjectName(QStringLiteral("messageSearch"));
    m_field->addItem(tr("Value"), int(FilterCondition::Field::Value));
    m_field->addItem(tr("Key"), int(FilterCondition::Field::Key));
    m_field->addItem(tr("Header"), int(FilterCondition::Field::Header));
    m_field->setObjectName(QStringLiteral("searchField"));
    m_header->setPlaceholderText(tr("header name"));
    m_header->setObjectName(QStringLiteral("searchHeader"));
    m_match->addItem(tr("contains"), int(FilterCondition::Match::Contains));
    m_match->addItem(tr("matches regex"), int(FilterCondition::Match::Regex));
    m_match->addItem(tr("JSON path"), int(FilterCondition::Match::JsonPath));
    m_match->setObjectName(QStringLiteral("searchMatch"));
    m_text->setObjectName(QStringLiteral("searchText"));
    m_text->setClearButtonEnabled(true);
    m_case->setObjectName(QStringLiteral("searchCase"));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    setUpTimeEdit(m_from, now.addSecs(-3600));
    setUpTimeEdit(m_to, now);
    m_fromOn->setToolTip(tr("Only records with a timestamp at or after this time"));
    m_toOn->setToolTip(tr("Only records with a timestamp at or before this time"));
    m_search->setObjectName(QStringLiteral("searchButton"));
    m_search->setToolTip(tr("Search the topic from the start chosen above (Latest N: from the end backwards); "
                            "\"max\" is the match limit"));
    m_cancel->setObjectName(QStringLiteral("searchCancel"));
    m_progress->setObjectName(QStringLiteral("searchProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(60);
    m_progress->setMaximumHeight(m_search->sizeHint().height() / 2);
    m_optionsButton->setObjectName(QStringLiteral("searchOptions"));
    m_optionsButton->setText(tr("Options"));
    m_optionsButton->setCheckable(true);
    m_optionsButton->setToolTip(tr("Match case and a time range"));
    m_options->setObjectName(QStringLiteral("searchOptionsRow"));
    m_options->setVisible(false);

    auto *condition = new QHBoxLayout;
    condition->addWidget(new QLabel(tr("Filter"), this));
    condition->addWidget(m_field);
    condition->addWidget(m_header);
    condition->addWidget(m_match);
    condition->addWidget(m_text, 1);
    condition->addWidget(m_optionsButton);
    condition->addWidget(m_search);
    condition->addWidget(m_cancel);
    condition->addWidget(m_progress);
    auto *options = new FlowLayout(m_options);
    options->setContentsMargins(0, 0, 0, 0);
    for (QWidget *w : std::initializer_list<QWidget *>{m_case, m_fromOn, m_from, m_toOn, m_to}) {
        w->setParent(m_options);
        options->addWidget(w);
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(condition);
    layout->addWidget(m_options);

    connect(m_field, &QComboBox::currentIndexChanged, this, &MessageSearchBar::updateControls);
    connect(m_match, &QComboBox::currentIndexChanged, this, &MessageSearchBar::updateControls);
    connect(m_fromOn, &QCheckBox::toggled, this, &MessageSearchBar::updateControls);
    connect(m_toOn, &QCheckBox::toggled, this, &MessageSearchBar::updateControls);
    connect(m_search, &QPushButton::clicked, this, &MessageSearchBar::searchRequested);
    connect(m_text, &QLineEdit::returnPressed, this, &MessageSearchBar::searchRequested);
    connect(m_cancel, &QPushButton::clicked, this, &MessageSearchBar::cancel);
    connect(m_optionsButton, &QToolButton::toggled, m_options, &QWidget::setVisible);
    updateControls();
}

MessageSearchBar::~MessageSearchBar() = default; // the job's destructor cancels; nothing waits

bool MessageSearchBar::isSearching() const
{
    return m_job && m_job->isRunning();
}

void MessageSearchBar::updateControls()
{
    const auto field = FilterCondition::Field(m_field->currentData().toInt());
    const auto match = FilterCondition::Match(m_match->currentData().toInt());
    m_header->setVisible(field == FilterCondition::Field::Header);
    m_case->setEnabled(match != FilterCondition::Match::JsonPath);
    m_text->setPlaceholderText(match == FilterCondition::Match::JsonPath ? tr("$.customer.id == 42")
                               : match == FilterCondition::Match::Regex  ? tr("regular expression")
                                                                         : tr("text (empty: every record)"));
    m_from->setEnabled(m_fromOn->isChecked());
    m_to->setEnabled(m_toOn->isChecked());
    // A time range in force stays visible on the button while its row is hidden.
    m_optionsButton->setText(m_fromOn->isChecked() || m_toOn->isChecked() ? tr("Options \u2022") : tr("Options"));
    const bool running = isSearching();
    // Cancel takes Search's place while a search runs: the row keeps its width.
    m_search->setVisible(!running);
    m_cancel->setVisible(running);
    m_progress->setVisible(running);
}

std::optional<MessageFilter> MessageSearchBar::filter(QString *error) const
{
    MessageFilter f;
    FilterCondition c;
    c.field = FilterCondition::Field(m_field->currentData().toInt());
    c.header = m_header->text().trimmed();
    c.match = FilterCondition::Match(m_match->currentData().toInt());
    c.text = m_text->text();
    c.caseSensitive = m_case->isChecked();
    if (c.field == FilterCondition::Field::Header && c.header.isEmpty()) {
        *error = tr("Filter: name the header to search");
        return std::nullopt;
    }
    if (c.match == FilterCondition::Match::JsonPath && c.text.trimmed().isEmpty()) {
        *error = tr("Filter: enter a JSON path predicate, for example $.customer.id == 42");
        return std::nullopt;
    }
    // An empty "contains" on the value filters nothing: leave it out.
    if (!(c.match == FilterCondition::Match::Contains && c.text.isEmpty() && c.field == FilterCondition::Field::Value))
        f.conditions.append(c);
    if (m_fromOn->isChecked())
        f.fromMs = m_from->dateTime().toMSecsSinceEpoch();
    if (m_toOn->isChecked())
        f.toMs = m_to->dateTime().toMSecsSinceEpoch();
    // The same checks the search makes, so a mistake is named before anything runs.
    QString why;
    if (!CompiledFilter::compile(f, &why)) {
        *error = tr("Filter: %1").arg(why);
        return std::nullopt;
    }
    return f;
}

void MessageSearchBar::start(const SearchSpec &spec)
{
    m_job = std::make_unique<MessageSearchJob>(spec);
    connect(m_job.get(), &MessageSearchJob::matchesFound, this,
            [this](const QList<KafkaMessage> &matches, const SearchProgress &progress) {
                showProgress(progress);
                if (!matches.isEmpty())
                    Q_EMIT matchesFound(matches);
            });
    connect(m_job.get(), &MessageSearchJob::finished, this, [this](const SearchResult &result) {
        m_progressText = result.summary();
        updateControls();
        Q_EMIT progressChanged(m_progressText);
        Q_EMIT finished(result);
    });
    m_progress->setValue(0);
    m_progressText = tr("Searching\u2026");
    Q_EMIT progressChanged(m_progressText);
    m_job->start();
    updateControls();
}

void MessageSearchBar::cancel()
{
    if (m_job)
        m_job->cancel();
}

void MessageSearchBar::abandon()
{
    if (!m_job)
        return;
    m_job.reset(); // cancels; its queued signals go nowhere (the job's guard)
    m_progressText.clear();
    updateControls();
}

void MessageSearchBar::showProgress(const SearchProgress &p)
{
    m_progress->setValue(p.total > 0 ? int(qMin<qint64>(1000, p.scanned * 1000 / p.total)) : 0);
    m_progressText =
        tr("%1 of %2 records scanned, %3 matching").arg(count(p.scanned), count(p.total), count(p.matched));
    Q_EMIT progressChanged(m_progressText);
}

} // namespace md
