# ruff: noqa: E501
"""Writes session.jsonl and labels.json: a Claude Code session written by hand for the heldout8b split.

An anxious PhD student (many questions, decisions as "ok so: ...", limits and dates in prose) has
Claude fix the thesis build (latexmk + biber), make chktex pass, check the page limit and produce a
PDF/A-1b for the print shop. Salient lines sit deep in long logs. latexmk, biber, chktex, make,
pdfinfo, veraPDF. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

CWD = "/home/aino/thesis"
c = ClaudeSession(CWD, "2026-11-24T21:40:00", seed="thesis-pdfa")

MAIN = "thesis.tex"
PRE = "preamble.tex"
MK = "Makefile"
CHK = ".chktexrc"
LMK = "latexmkrc"

c.files.update({
    MAIN: """\\documentclass[12pt,a4paper,twoside]{report}
\\input{preamble}
\\begin{document}
\\frontmatter
\\include{chapters/abstract}
\\tableofcontents
\\mainmatter
\\include{chapters/intro}
\\include{chapters/background}
\\include{chapters/method}
\\include{chapters/experiments}
\\include{chapters/discussion}
\\include{chapters/conclusion}
\\printbibliography
\\appendix
\\include{chapters/appendix-data}
\\end{document}
""",
    PRE: """\\usepackage[T1]{fontenc}
\\usepackage[utf8]{inputenc}
\\usepackage{lmodern}
\\usepackage[english]{babel}
\\usepackage{setspace}
\\onehalfspacing
\\usepackage{graphicx}
\\usepackage{booktabs}
\\usepackage[style=authoryear,backend=biber]{biblatex}
\\addbibresource{references.bib}
\\usepackage{hyperref}
\\newcommand{\\frontmatter}{\\pagenumbering{roman}}
\\newcommand{\\mainmatter}{\\cleardoublepage\\pagenumbering{arabic}}
""",
    "references.bib": """@book{hakulinen2004,
  title     = {Iso suomen kielioppi},
  author    = {Hakulinen, Auli and Vilkuna, Maria and Korhonen, Riitta and Koivisto, Vesa and Heinonen, Tarja Riitta and Alho, Irja},
  publisher = {Suomalaisen Kirjallisuuden Seura},
  year      = {2004}
}

@article{koskenniemi1983,
  title   = {Two-level morphology: A general computational model for word-form recognition and production},
  journal = {Publications of the Department of General Linguistics, University of Helsinki}
  author  = {Koskenniemi, Kimmo},
  year    = {1983},
  volume  = {11}
}
""",
    "chapters/abstract.tex": """\\chapter*{Abstract}
\\PassOptionsToPackage{colorlinks}{hyperref}
This thesis studies morphological segmentation for low-resource Uralic languages.
""",
    MK: """all:
\tlatexmk -pdf thesis.tex

clean:
\tlatexmk -C
""",
})

# ===================================================================== turn 1
c.user(
    "hi, ok so I'm kind of panicking. my thesis stopped building yesterday after I merged in the references my supervisor sent, and I have a meeting with him (prof. Heikkinen) on 2 December where I'm supposed to bring a full PDF. "
    "can you figure out why `make` fails? the log is enormous and I honestly can't find the error in it. also is it normal that it takes like 4 runs?? I didn't change anything in the tex files I think, only references.bib. please don't reformat my chapters, I have them exactly how I like them."
)
c.bash("ls; git log --oneline -6; git status --short", """Makefile
chapters
figures
preamble.tex
references.bib
thesis.tex
a91c7e0 merge Heikkinen refs
5d2f3b8 ch5: discussion draft
e07c1a4 ch4: experiments tables
92b6d15 ch3: method
11aa0c3 template
""", description="Look around")
c.reads([MAIN, PRE, MK])
c.bash("make 2>&1 | tail -25", """Exit code 2
Latexmk: applying rule 'biber thesis'...
Running 'biber  "thesis"'
INFO - This is Biber 2.19
INFO - Logfile is 'thesis.blg'
INFO - Reading 'thesis.bcf'
INFO - Found 187 citekeys in bib section 0
INFO - Processing section 0
INFO - Looking for bibtex file 'references.bib' for section 0
INFO - LaTeX decoding ...
INFO - Found BibTeX data source 'references.bib'
ERROR - BibTeX subsystem: /tmp/biber_tmp_Xq2a/references.bib_48211.utf8, line 1893, syntax error: found "author", expected end of entry ("}" or ")") (skipping to next "@")
INFO - WARNINGS: 0
INFO - ERRORS: 1
Latexmk: Errors, so I did not complete making targets
Collected error summary (may duplicate other messages):
  biber thesis: Run of biber failed
Latexmk: Use the -f option to force complete processing,
 unless warnings are safe to ignore.
make: *** [Makefile:2] Error 2
""", description="Run make")
c.bash("sed -n '1885,1896p' references.bib", """@article{koskenniemi1983,
  title   = {Two-level morphology: A general computational model for word-form recognition and production},
  journal = {Publications of the Department of General Linguistics, University of Helsinki}
  author  = {Koskenniemi, Kimmo},
  year    = {1983},
  volume  = {11}
}

@inproceedings{creutz2002,
  title     = {Unsupervised Discovery of Morphemes},
  author    = {Creutz, Mathias and Lagus, Krista},
""", description="Line 1893 area")
c.assistant(
    "Found it. The error is in biber, not LaTeX: `ERROR - BibTeX subsystem: ... references.bib ... line 1893, syntax error: found \"author\", expected end of entry`. Line numbers in the temp file are offset a bit, but the entry is `koskenniemi1983`: the `journal = {...}` line has **no comma at the end**, so biber thinks the entry ends there and chokes on `author`. One character fix in references.bib; I won't touch your chapters.\n\n"
    "About 4 runs: that's normal with biblatex: pdflatex → biber → pdflatex → pdflatex (references and the table of contents need the extra passes). latexmk decides the number itself."
)

# ===================================================================== turn 2
c.user("oh my god a comma. ok so: fix the comma. is there any way to find other ones like that before they blow up? Heikkinen said there are more refs coming.")
c.edit("references.bib", """  journal = {Publications of the Department of General Linguistics, University of Helsinki}
  author  = {Koskenniemi, Kimmo},""", """  journal = {Publications of the Department of General Linguistics, University of Helsinki},
  author  = {Koskenniemi, Kimmo},""")
c.bash("biber --tool --validate-datamodel references.bib 2>&1 | grep -E 'ERROR|WARN' | head -10; rm -f references_bibertool.bib", """WARN - Datamodel: article entry 'lindén2009' (references.bib): Invalid field 'publisher' for entrytype 'article'
WARN - Datamodel: inproceedings entry 'virpioja2013' (references.bib): Missing mandatory field 'booktitle'
""", description="Validate the whole bib")
c.assistant("`biber --tool --validate-datamodel references.bib` checks the whole file without building: no more syntax errors now, two warnings (lindén2009 has a publisher on an article, harmless; virpioja2013 lacks booktitle, which will print an incomplete reference). I'll add it as `make checkbib`. Now the build:")
c.bash("make 2>&1 | grep -n -E '^!|Error|Warning.*undefined|Output written' | head -12", """Exit code 2
1408:! Undefined control sequence.
1409:l.142 ...segmentation is discussed at length by \\citet
1433:! Undefined control sequence.
1434:l.57 ...following \\citet
2290:! Emergency stop.
""", description="Build again")
c.bash("grep -rn '\\\\citet\\|\\\\citep' chapters/ | wc -l; grep -rln '\\\\citet\\|\\\\citep' chapters/", """64
chapters/background.tex
chapters/method.tex
chapters/experiments.tex
""", description="How many natbib cites")
c.bash("git log -S'natbib' --oneline -- preamble.tex; git show a91c7e0 --stat | head", """a91c7e0 merge Heikkinen refs
commit a91c7e0
    merge Heikkinen refs
 preamble.tex   |   2 +-
 references.bib | 812 +++++++++++++++++++++++++++++
""", description="Who removed natbib")
c.bash("git show a91c7e0 -- preamble.tex", """-\\usepackage[style=authoryear,backend=biber,natbib=true]{biblatex}
+\\usepackage[style=authoryear,backend=biber]{biblatex}
""", description="The preamble change")
c.assistant(
    "Next error (line 1408 of the log): `! Undefined control sequence.` at `\\citet`. You have 64 `\\citet`/`\\citep` in background, method and experiments. Those are natbib commands, which biblatex only provides with `natbib=true`, and that option **was removed in the merge commit a91c7e0**, probably when you took Heikkinen's preamble line. So you did change a tex file, without noticing, in the merge.\n\n"
    "Fix: put `natbib=true` back in preamble.tex (one option, no chapter changes). Alternatively convert the 64 cites to `\\textcite`/`\\parencite`, but you asked me not to touch chapters. OK to restore the option?"
)

# ===================================================================== turn 3
c.user("yes restore it!! wait does natbib=true change how the citations look? Heikkinen is picky about authoryear. ok so: restore it, and if it changes anything visible tell me.")
c.edit(PRE, """\\usepackage[style=authoryear,backend=biber]{biblatex}""", """\\usepackage[style=authoryear,backend=biber,natbib=true]{biblatex}""")
c.bash("make 2>&1 | grep -n -E '^!|Output written|Latexmk: (All|Errors)|Rerun' | tail -6", """3121:Output written on thesis.pdf (231 pages, 4718233 bytes).
3126:Latexmk: All targets (thesis.pdf) are up-to-date
""", description="Build")
c.assistant("It builds: **thesis.pdf, 231 pages**. `natbib=true` only adds the `\\citet`/`\\citep` aliases mapped to biblatex's own authoryear commands; the style stays authoryear, so nothing visible changes compared to before the merge.")

# ===================================================================== turn 4
c.user(
    "231?!?! the limit is 200 pages. oh no. wait, does the limit include the bibliography and appendices? I think the faculty rule says main text max 200 pages, appendices and references not counted, but front matter... I don't know. "
    "can you tell me how many pages the main text is? also chktex, the department template README says to run it before submitting, can you run that too. the pre-examination deadline is 15 January 2027 so I have some time but not much."
)
c.bash("grep -n 'pagenumbering\\|printbibliography\\|appendix' thesis.tex preamble.tex; pdfinfo thesis.pdf | grep Pages", """thesis.tex:14:\\printbibliography
thesis.tex:15:\\appendix
preamble.tex:12:\\newcommand{\\frontmatter}{\\pagenumbering{roman}}
preamble.tex:13:\\newcommand{\\mainmatter}{\\cleardoublepage\\pagenumbering{arabic}}
Pages:          231
""", description="Page structure")
c.edit(MAIN, """\\include{chapters/conclusion}
\\printbibliography""", """\\include{chapters/conclusion}
\\label{lastmainpage}
\\printbibliography""")
c.bash("make >/dev/null 2>&1; grep -o 'newlabel{lastmainpage}{{[^}]*}{[0-9]*}' thesis.aux; grep -c '' /dev/null; python3 -c \"import re;t=open('thesis.aux').read();print(re.findall(r'newlabel\\{(lastmainpage)\\}\\{\\{[^}]*\\}\\{(\\d+)\\}',t))\"", """newlabel{lastmainpage}{{7.4}{196}
0
[('lastmainpage', '196')]
""", description="Where the main text ends")
c.bash("pdfinfo thesis.pdf | grep Pages; python3 -c \"import re;t=open('thesis.aux').read();print(re.findall(r'newlabel\\{(sec:appendix-data)\\}\\{\\{[^}]*\\}\\{(\\d+)\\}',t))\"; grep -c 'entry{' thesis.bbl", """Pages:          231
[]
187
""", description="Bibliography size")
c.assistant(
    "Main text = arabic pages **1–196** (the label `lastmainpage` after the conclusion lands on page 196). The remaining 231 pages are ~14 roman front-matter pages, the bibliography (187 entries, about 15 pages) and the appendix. So if the rule is 'main text max 200 pages, references and appendices not counted', you're at **196 of 200**, under the limit but with only 4 pages of slack. Whether front matter counts is something only the faculty rules/Heikkinen can answer; I'd ask him on 2 December.\n\nNow chktex."
)
c.bash("chktex -q thesis.tex chapters/*.tex 2>&1 | tail -30; chktex -q thesis.tex chapters/*.tex 2>&1 | grep -o 'Warning [0-9]*' | sort | uniq -c | sort -rn", """Warning 8 in chapters/experiments.tex line 211: Wrong length of dash may have been used.
  scores improved by 2-3 points over the baseline  
                     ^
Warning 1 in chapters/method.tex line 40: Command terminated with space.
\\LaTeX is used  
      ^
Warning 36 in chapters/method.tex line 88: You should put a space in front of parenthesis.
see Table~\\ref{tab:data}(a)  
                         ^
Warning 24 in chapters/discussion.tex line 17: Delete this space to maintain correct pagereferences.
 \\label{sec:discussion}
^
Warning 8 in chapters/experiments.tex line 240: Wrong length of dash may have been used.
 pages 12-19 of the corpus  
         ^
     41 Warning 8
     17 Warning 36
      9 Warning 1
      3 Warning 24
""", description="chktex")
c.assistant(
    "chktex: 70 warnings: 41× **W8** (hyphen where a range en-dash `--` is expected, e.g. `2-3 points`, `pages 12-19`), 17× W36 (space before parenthesis: mostly `Table~\\ref{x}(a)`, which is intentional), 9× W1 (`\\LaTeX is` eats the space: a real typo in output), 3× W24 (space before `\\label`).\n\n"
    "W8 and W1 change what's printed, so they're real; W36 are style false positives in your usage. These are all in chapters, which you asked me not to touch. How do you want to handle it?"
)

# ===================================================================== turn 5
c.user(
    "hmm. ok so: W8 and W1 you can fix in the chapters, just those characters, nothing else, I'll check the diff. W36 turn off in a chktexrc. W24 I don't understand, is it bad? and can `make` run chktex too so I don't forget. "
    "oh and the print shop (Unigrafia) needs PDF/A-1b, I completely forgot, the deadline for the print order is 5 working days before the defence but that's far away, still I'd like to know now if it works."
)
c.bash("chktex -q -w8 chapters/*.tex 2>&1 | grep -A1 '^Warning 8' | grep -v '^Warning\\|^--' | head -5; chktex -q -w8 chapters/*.tex 2>&1 | grep -c '^Warning 8'", """  scores improved by 2-3 points over the baseline  
 pages 12-19 of the corpus  
 the CRF-based segmenter  
 a Finnish-Estonian comparison  
 years 1998-2014  
41
""", description="Look at all W8")
c.assistant("Careful: not every W8 is a range. `CRF-based` and `Finnish-Estonian`... the second one should be an en-dash too in typography (a relation between two languages), but `CRF-based` is a compound and must stay a hyphen. So I won't sed blindly: I'll only change hyphens between two **numbers** (digits-digits, a range), and show you the non-numeric ones.")
c.bash("grep -nE '[0-9]-[0-9]' chapters/*.tex | grep -v '\\\\ref\\|\\\\cite\\|\\\\label\\|[0-9]{4}-[0-9]{2}-[0-9]{2}' | wc -l; sed -i -E '/\\\\(ref|cite|label)/!s/([0-9])-([0-9])/\\1--\\2/g' chapters/*.tex && git diff --stat chapters/", """29
 chapters/background.tex  |  6 +++---
 chapters/discussion.tex  |  4 ++--
 chapters/experiments.tex | 31 ++++++++++++++++---------------
 chapters/method.tex      |  3 ++-
""", description="Numeric ranges to en-dash")
c.bash("git diff -U0 chapters/ | grep '^[-+][^-+]' | head -8; git diff -U0 chapters/ | grep -c '^+[^+]'", """-  scores improved by 2-3 points over the baseline
+  scores improved by 2--3 points over the baseline
- pages 12-19 of the corpus
+ pages 12--19 of the corpus
- data from 2019-06-14 onwards
+ data from 2019--06--14 onwards
-$x_{i-1}$ and $x_{i+1}$
+$x_{i--1}$ and $x_{i+1}$
""", description="Check the diff")
c.assistant("Two mistakes in my sed, I'm glad I checked: a date `2019-06-14` became `2019--06--14` (my date exclusion was in the grep count, not in the sed), and **math** `$x_{i-1}$` became `$x_{i--1}$`, which would print a wrong formula. Reverting the chapter changes entirely and doing it properly: only in text mode, not in dates.")
c.bash("git checkout -- chapters/ && git status --short chapters/", "", description="Revert chapters")
c.bash("chktex -q -w8 -f'%f:%l:%c\\n' chapters/*.tex 2>/dev/null > /tmp/w8.txt; wc -l < /tmp/w8.txt; python3 /home/aino/bin/endash.py --only-numeric-ranges --skip-math --skip-dates /tmp/w8.txt && git diff -U0 chapters/ | grep -c '^+[^+]'", """41
27
""", description="Fix only reported numeric ranges")
c.bash("git diff -U0 chapters/ | grep '^+[^+]' | grep -E '\\$|[0-9]{4}--[0-9]{2}--' ; echo none-in-math-or-dates; chktex -q -w8 chapters/*.tex 2>&1 | grep -c '^Warning 8'", """none-in-math-or-dates
14
""", description="Verify")
c.assistant(
    "Done carefully this time: 27 numeric ranges in text changed to `--`, **none** in math or dates (checked the diff). 14 W8 remain, all non-numeric (`CRF-based`, `Finnish-Estonian`, `two-level`...): I left them. `Finnish-Estonian` arguably wants an en-dash; your call.\n\n"
    "I used a small script at `/home/aino/bin/endash.py` — wait, that's yours, it was already on your machine (I didn't write it in this session). It has `--only-numeric-ranges --skip-math --skip-dates` flags, so it does exactly this, but please check the diff as you said."
)
c.bash("grep -n '\\\\LaTeX \\|\\\\TeX \\|\\\\ldots ' chapters/*.tex | head -10", """chapters/method.tex:40:\\LaTeX is used
chapters/method.tex:52:\\ldots and so on
chapters/background.tex:12:the \\TeX community
chapters/intro.tex:8:\\LaTeX and friends
""", description="W1 spots")
c.bash("sed -i -E 's/\\\\(LaTeX|TeX|ldots) /\\\\\\1\\\\ /' chapters/method.tex chapters/background.tex chapters/intro.tex && chktex -q -w1 chapters/*.tex 2>&1 | grep -c '^Warning 1'; git diff -U0 chapters/method.tex | grep '^+[^+]' | head -3", """5
+\\LaTeX\\ is used
+\\ldots\\ and so on
""", description="Fix W1")
c.bash("chktex -q -w1 chapters/*.tex 2>&1 | grep -A1 '^Warning 1' | head -6", """Warning 1 in chapters/experiments.tex line 77: Command terminated with space.
\\etal results  
     ^
Warning 1 in chapters/experiments.tex line 133: Command terminated with space.
\\etal report  
     ^
""", description="Remaining W1")
c.bash("grep -n 'etal' preamble.tex chapters/*.tex | head -3", """chapters/experiments.tex:77:\\etal results
chapters/experiments.tex:133:\\etal report
chapters/experiments.tex:150:\\etal show
""", description="etal definition")
c.assistant("The remaining 5 W1 are `\\etal` in experiments.tex, and `\\etal` is **not defined anywhere** (not in preamble.tex): it compiles only because... let me check the log, it should be an Undefined control sequence.")
c.bash("grep -n -B2 -A3 'etal' thesis.log | head -12", """14922:! Undefined control sequence.
14923-l.77 \\etal
14924-               results
14930:! Undefined control sequence.
14931-l.133 \\etal
""", description="etal in the log")
c.bash("grep -n 'interaction\\|-f\\b\\|force' latexmkrc ~/.latexmkrc 2>/dev/null", """/home/aino/.latexmkrc:3:$force_mode = 1;
/home/aino/.latexmkrc:4:$pdflatex = 'pdflatex -interaction=nonstopmode %O %S';
""", description="Why errors don't stop the build")
c.assistant(
    "Important find: `\\etal` is undefined and gives `! Undefined control sequence` at log line 14922 (l.77 and l.133 of experiments.tex), so \"et al.\" is simply **missing** from the PDF in those places. The build never stopped because your `~/.latexmkrc` has `$force_mode = 1` and nonstopmode, so latexmk keeps going past LaTeX errors and still says up-to-date. That's how errors hide in the long log.\n\n"
    "Proposal: define `\\newcommand{\\etal}{et~al.\\@\\xspace}` in preamble.tex (with xspace, which also fixes the W1), and make the project's Makefile override force mode (`latexmk -pdf -halt-on-error` with `$force_mode = 0` in a project `latexmkrc`) so an error fails `make`."
)

# ===================================================================== turn 6
c.user("WHAT. so my pdf has been missing et al. this whole time?? ok so: yes define it, yes make errors fail the build. W24 still, is it bad? and the PDF/A.")
c.edit(PRE, """\\usepackage{hyperref}""", """\\usepackage{xspace}
\\newcommand{\\etal}{et~al.\\@\\xspace}
\\usepackage{hyperref}""")
c.write(LMK, """# Project settings: override ~/.latexmkrc (force_mode there hid LaTeX errors)
$pdf_mode = 1;
$force_mode = 0;
$pdflatex = 'pdflatex -interaction=nonstopmode -halt-on-error -file-line-error %O %S';
""")
c.write(CHK, """# chktex settings for the thesis
# W36 (space before parenthesis): Table~\\ref{x}(a) is intended
CmdLine { -n36 }
""")
c.write(MK, """all: thesis.pdf

thesis.pdf: FORCE
\tlatexmk -r latexmkrc -pdf thesis.tex

check: checkbib
\tchktex -q -l .chktexrc thesis.tex chapters/*.tex

checkbib:
\tbiber --tool --validate-datamodel references.bib -O /dev/null

clean:
\tlatexmk -C

.PHONY: all check checkbib clean FORCE
""")
c.bash("make 2>&1 | grep -n -E ':[0-9]+: |^!|Output written' | tail -4", """3140:Output written on thesis.pdf (231 pages, 4719110 bytes).
""", description="Build with halt-on-error")
c.bash("make check 2>&1 | tail -8", """Exit code 2
biber --tool --validate-datamodel references.bib -O /dev/null
WARN - Datamodel: article entry 'lindén2009' (references.bib): Invalid field 'publisher' for entrytype 'article'
WARN - Datamodel: inproceedings entry 'virpioja2013' (references.bib): Missing mandatory field 'booktitle'
chktex -q -l .chktexrc thesis.tex chapters/*.tex
Warning 8 in chapters/background.tex line 31: Wrong length of dash may have been used.
Warning 24 in chapters/discussion.tex line 17: Delete this space to maintain correct pagereferences.
make: *** [Makefile:7] Error 17
""", description="make check")
c.assistant(
    "Build passes with `-halt-on-error` (231 pages; so no other hidden LaTeX errors). `make check` runs biber validation + chktex and currently fails with 17 remaining warnings: 14 non-numeric W8 you decided to keep as hyphens, and 3 W24.\n\n"
    "W24 (`Delete this space to maintain correct pagereferences`): a space/newline before `\\label` can make `\\pageref` point to the previous page when the label falls at a page break. Low risk, but it's a one-character fix each (the label right after `\\section{...}` with no blank). Those are in chapters, so your call. For W8: should I turn W8 off in .chktexrc as well, since the remaining ones are intentional? Otherwise `make check` never passes."
)

# ===================================================================== turn 7
c.user("ok so: fix the 3 W24, and turn off W8 too, I'll remember ranges myself. then PDF/A please. sorry for all the questions")
c.bash("sed -i -E 's/^ +(\\\\label\\{)/\\1/' chapters/discussion.tex chapters/method.tex chapters/background.tex && git diff -U0 chapters/discussion.tex | grep '^[-+][^-+]'", """- \\label{sec:discussion}
+\\label{sec:discussion}
""", description="W24")
c.edit(CHK, """CmdLine { -n36 }""", """# W8 (dash length): remaining hits are compounds (CRF-based, Finnish-Estonian); numeric ranges already use --
CmdLine { -n36 -n8 }""")
c.bash("make check 2>&1 | tail -3; echo rc=$?", """WARN - Datamodel: inproceedings entry 'virpioja2013' (references.bib): Missing mandatory field 'booktitle'
chktex -q -l .chktexrc thesis.tex chapters/*.tex
rc=0
""", description="make check")
c.assistant("`make check` passes (chktex clean with -n36 -n8; biber prints the two datamodel WARNs but doesn't fail). Now PDF/A-1b with the `pdfx` package, which replaces hyperref's own loading.")
c.edit(PRE, """\\usepackage{hyperref}""", """\\usepackage[a-1b]{pdfx}   % Unigrafia print: PDF/A-1b; pdfx loads hyperref itself""")
c.write("thesis.xmpdata", """\\Title{Morphological segmentation for low-resource Uralic languages}
\\Author{Aino Rautio}
\\Language{en-GB}
\\Keywords{morphology\\sep segmentation\\sep Uralic languages}
""")
c.bash("make 2>&1 | grep -n -E ':[0-9]+: |^!' | head -4", """Exit code 2
2871:./preamble.tex:14: LaTeX Error: Option clash for package hyperref.
""", description="Build with pdfx")
c.bash("grep -n 'hyperref' preamble.tex chapters/*.tex thesis.tex; grep -rn 'RequirePackage.*hyperref' $(kpsewhich biblatex.sty) | head -2", """preamble.tex:14:\\usepackage[a-1b]{pdfx}   % Unigrafia print: PDF/A-1b; pdfx loads hyperref itself
""", description="Who loads hyperref")
c.bash("grep -n -B6 'Option clash for package hyperref' thesis.log | grep -E '\\(/|Package' | tail -4", """2860:(/usr/share/texlive/texmf-dist/tex/latex/xspace/xspace.sty
2862:Package: xspace 2014/10/28 v1.13 Space after command names (DAC)
2866:(/usr/share/texlive/texmf-dist/tex/latex/pdfx/pdfx.sty
2868:Package: pdfx 2019/02/27 v1.6.3 PDF/X and PDF/A support
""", description="Load order before the clash")
c.bash("grep -n 'hyperref' $(kpsewhich babel.sty) | head -2; grep -n 'PassOptionsToPackage.*hyperref\\|hypersetup' preamble.tex thesis.tex chapters/abstract.tex", """chapters/abstract.tex:2:\\PassOptionsToPackage{colorlinks}{hyperref}
""", description="PassOptions")
c.assistant(
    "Found, 12 lines before the error in the log the clash is inside pdfx, and the reason is in **chapters/abstract.tex line 2**: `\\PassOptionsToPackage{colorlinks}{hyperref}`. With plain hyperref that was harmless; pdfx loads hyperref with its own PDF/A options, and colorlinks clashes. PDF/A-1b also forbids... no, colored links are fine, but the option has to go through `\\hypersetup{colorlinks}` after pdfx. That means changing abstract.tex line 2 (a chapter file): replacing it with nothing and adding `\\hypersetup{colorlinks}` in preamble.tex. OK?"
)

# ===================================================================== turn 8
c.user("yes that line is from the template, not mine, change it. does colorlinks matter for the print version?")
c.edit("chapters/abstract.tex", """\\PassOptionsToPackage{colorlinks}{hyperref}
""", "")
c.edit(PRE, """\\usepackage[a-1b]{pdfx}   % Unigrafia print: PDF/A-1b; pdfx loads hyperref itself""", """\\usepackage[a-1b]{pdfx}   % Unigrafia print: PDF/A-1b; pdfx loads hyperref itself
\\hypersetup{colorlinks=true,allcolors=black}   % black links: same look on paper, still clickable""")
c.bash("make 2>&1 | grep -n -E ':[0-9]+: |^!|Output written' | tail -2; verapdf --flavour 1b thesis.pdf 2>/dev/null | grep -E 'isCompliant|failedRules|<rule ' | head -8", """3188:Output written on thesis.pdf (231 pages, 4861522 bytes).
<validationReport profileName="PDF/A-1B validation profile" statement="PDF file is not compliant with Validation Profile requirements." isCompliant="false">
<details passedRules="124" failedRules="1" passedChecks="401288" failedChecks="6">
<rule specification="ISO 19005-1:2005" clause="6.4" testNumber="1" status="failed" failedChecks="6">
""", description="Build + veraPDF")
c.bash("verapdf --flavour 1b thesis.pdf 2>/dev/null | grep -A3 'clause=\"6.4\"' | grep -E 'description|context' | head -4", """<description>If an SMask key appears in an ExtGState or XObject dictionary, its value shall be None</description>
<context>root/document[0]/pages[88](215 0 obj PDPage)/contentStream[0]/operators[1420]/xObject[0](311 0 obj PDXImage)</context>
""", description="Rule 6.4 details")
c.bash("pdfimages -list thesis.pdf | awk '$3==\"smask\"' | head -8; ls figures/*.png | head", """  89     1 smask    1600   900  gray    1   8  image  no       312  0   144   144 12.1K 0.8%
 112     3 smask    1200  1200  gray    1   8  image  no       402  0   144   144 9.4K 0.7%
 140     2 smask    1400   800  gray    1   8  image  no       477  0   144   144 8.8K 0.8%
figures/f1-pipeline.png
figures/f4-errors-by-pos.png
figures/f5-morfessor-vs-crf.png
figures/f6-lang-map.png
""", description="Which images have transparency")
c.assistant(
    "PDF builds (231 pages). veraPDF: not compliant, **1 rule failed: ISO 19005-1 clause 6.4** (6 checks): `If an SMask key appears in an ExtGState or XObject dictionary, its value shall be None`, i.e. **transparency**, which PDF/A-1 forbids. `pdfimages` shows soft masks (alpha channels) on images on pages 89, 112 and 140: PNG figures saved with a transparent background. Fix: flatten those PNGs onto white (`convert in.png -background white -alpha remove -alpha off out.png`). That changes figure files, not chapters; originals stay in git. Do it?"
)

# ===================================================================== turn 9
c.user("yes flatten them. the figures come from my python notebooks, will this happen again when I regenerate them? ok so: flatten now, and tell me what to change in the notebooks later, not now.")
c.bash("for f in figures/*.png; do if [ \"$(identify -format '%A' \"$f\")\" != \"Undefined\" ] && [ \"$(identify -format '%A' \"$f\")\" != \"False\" ]; then convert \"$f\" -background white -alpha remove -alpha off \"$f\" && echo flattened $f; fi; done", """flattened figures/f4-errors-by-pos.png
flattened figures/f5-morfessor-vs-crf.png
flattened figures/f6-lang-map.png
""", description="Flatten PNGs with alpha")
c.bash("make 2>&1 | grep -E 'Output written' ; verapdf --flavour 1b thesis.pdf 2>/dev/null | grep -o 'isCompliant=\"[a-z]*\"' | head -1; pdfinfo thesis.pdf | grep -E 'Pages|PDF version'", """Output written on thesis.pdf (231 pages, 4853907 bytes).
isCompliant="true"
Pages:          231
PDF version:    1.4
""", description="Rebuild + veraPDF")
c.bash("git status --short", """ M chapters/abstract.tex
 M chapters/background.tex
 M chapters/discussion.tex
 M chapters/experiments.tex
 M chapters/intro.tex
 M chapters/method.tex
 M figures/f4-errors-by-pos.png
 M figures/f5-morfessor-vs-crf.png
 M figures/f6-lang-map.png
 M Makefile
 M preamble.tex
 M references.bib
 M thesis.tex
?? .chktexrc
?? latexmkrc
?? thesis.xmpdata
""", description="Status")
c.assistant(
    "**PDF/A-1b: veraPDF says compliant** (isCompliant=\"true\"), 231 pages, PDF 1.4. Flattened f4, f5, f6 (f1 had no alpha).\n\n"
    "Summary of everything: references.bib comma fixed (koskenniemi1983); `natbib=true` restored; `\\etal` defined (was missing from the PDF); project `latexmkrc` makes LaTeX errors fail `make`; `make check` = biber validation + chktex (W36 and W8 off); 27 numeric ranges → en-dash, 4 W1 spaces, 3 W24 labels; pdfx a-1b with black colorlinks; xmpdata metadata. Main text ends on p. 196 (limit 200, front matter question open for Heikkinen). Nothing committed yet — want a commit? For the notebooks (later): save with `facecolor='white', transparent=False`."
)
c.user("yes commit please, one commit is fine. thank you so much, I can sleep now")
c.bash("git add -A && git commit -qm 'Fix build (bib comma, natbib, \\\\etal), chktex clean, PDF/A-1b via pdfx, flattened figures' && git log --oneline -1", "c3e8d14 Fix build (bib comma, natbib, \\etal), chktex clean, PDF/A-1b via pdfx, flattened figures\n", description="Commit")
c.assistant("Committed `c3e8d14`. Sleep well. Open points for 2 December: whether front matter counts toward the 200 pages (you're at 196 main-text pages), virpioja2013's missing booktitle, and the notebooks' transparent backgrounds.")

c.save(HERE / "session.jsonl")
print("tool calls:", c.calls)

META_ = {
    "title": "PhD thesis (LaTeX report, biblatex/biber): build fixed (bib comma, natbib=true, undefined \\etal hidden by force_mode), chktex clean via make check, main text 196/200 pages, PDF/A-1b via pdfx verified by veraPDF; commit c3e8d14",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout8b test split",
    "voice": "anxious PhD student, many questions, decisions with \"ok so:\", limits and dates in prose",
    "toolchain": "pdflatex via latexmk, biber 2.19 + biblatex authoryear, chktex, make, pdfinfo/pdfimages, ImageMagick, veraPDF",
}
COMPACTIONS = [
    ("It builds: **thesis.pdf, 231 pages**", 1200),
    ("Important find: `\\etal` is undefined", 1200),
    ("PDF builds (231 pages). veraPDF: not compliant", 1200),
]
FACTS = [
    f("t01", "request", "must", "can you figure out why `make` fails?", "Find why make fails since merging the supervisor's references (full PDF needed for the meeting with Prof. Heikkinen on 2 December).", [r"make|build", r"fail|references|Heikkinen|2 December"], "done"),
    f("t02", "value", "should", "I have a meeting with him (prof. Heikkinen) on 2 December", "Meeting with supervisor Prof. Heikkinen on 2 December (bring a full PDF).", [r"2 December|Dec(ember)? 2|Heikkinen"]),
    f("t03", "constraint", "must", "please don't reformat my chapters, I have them exactly how I like them", "Don't reformat the chapters; only targeted character fixes she approves (she checks the diff).", [r"chapter", r"not|don.t|reformat|only|diff"]),
    f("t04", "error", "must", "Found it. The error is in biber, not LaTeX", "biber failed: 'syntax error: found \"author\", expected end of entry' (references.bib ~line 1893): koskenniemi1983's journal line lacked a trailing comma; fixed.", [r"koskenniemi1983|comma|syntax error", r"biber|bib|comma|journal"], "fixed"),
    f("t05", "command", "should", "`biber --tool --validate-datamodel references.bib` checks the whole file", "Validate the whole bib without building: biber --tool --validate-datamodel references.bib (now make checkbib); two WARNs remain: lindén2009 publisher on article, virpioja2013 missing booktitle.", [r"validate-datamodel|checkbib", r"biber|virpioja2013|WARN"]),
    f("t06", "finding", "must", "Next error (line 1408 of the log): `! Undefined control sequence.` at `\\citet`", "'! Undefined control sequence' at \\citet: 64 natbib cites in background/method/experiments; natbib=true had been dropped from the biblatex options in merge commit a91c7e0; restored (no visible change, still authoryear).", [r"natbib|citet", r"a91c7e0|restor|option|Undefined"], "fixed"),
    f("t07", "constraint", "should", "Heikkinen is picky about authoryear", "Citation style must stay biblatex authoryear (Heikkinen is picky); report anything visible that changes.", [r"authoryear"]),
    f("t08", "value", "must", "the limit is 200 pages. oh no. wait, does the limit include", "Page limit: main text max 200 pages; references and appendices not counted (front matter unclear).", [r"200", r"page|limit"]),
    f("t09", "value", "must", "the pre-examination deadline is 15 January 2027", "Pre-examination deadline: 15 January 2027.", [r"15 January 2027|2027-01-15|Jan(uary)? 15,? 2027"]),
    f("t10", "finding", "must", "Main text = arabic pages **1–196**", "Main text ends on page 196 (label lastmainpage after the conclusion) of 231 total: 196 of 200, 4 pages of slack; whether front matter counts is open (ask Heikkinen).", [r"196", r"200|main|page"], "open"),
    f("t11", "path", "nice", "\\\\label{lastmainpage}\\n\\\\printbibliography", "thesis.tex: \\label{lastmainpage} added after the conclusion to measure the main text.", [r"lastmainpage"]),
    f("t12", "finding", "should", "chktex: 70 warnings: 41×", "chktex initially: 70 warnings: 41 W8 (dash length), 17 W36 (space before parenthesis, intended), 9 W1 (command terminated with space), 3 W24 (space before \\label).", [r"chktex|W8|Warning 8", r"70|41|W36|W1|W24"]),
    f("t13", "decision", "should", "ok so: W8 and W1 you can fix in the chapters, just those characters", "Fix W8 and W1 in the chapters (only those characters; she checks the diff); turn W36 off in a chktexrc; make should run chktex.", [r"W8|W1|W36", r"fix|chktexrc|off|make"]),
    f("t14", "error", "should", "Two mistakes in my sed, I'm glad I checked", "A blind sed for digit-digit ranges also changed a date (2019--06--14) and math ($x_{i--1}$); reverted with git checkout -- chapters/.", [r"sed|date|math|2019--06--14|i--1", r"revert|checkout|wrong|mistake"], "fixed"),
    f("t15", "fix", "should", "Done carefully this time: 27 numeric ranges in text changed", "27 numeric ranges in text changed to en-dash (--) via the user's /home/aino/bin/endash.py --only-numeric-ranges --skip-math --skip-dates, none in math or dates; 14 non-numeric W8 (CRF-based, Finnish-Estonian) left as hyphens.", [r"27|en-?dash|endash", r"range|--|numeric"]),
    f("t16", "finding", "must", "Important find: `\\etal` is undefined", "\\etal was undefined ('! Undefined control sequence' at log line 14922, experiments.tex l.77/l.133), so 'et al.' was missing from the PDF; hidden because ~/.latexmkrc sets $force_mode = 1 with nonstopmode.", [r"etal|et al", r"undefined|missing|force_mode"], "fixed"),
    f("t17", "decision", "must", "ok so: yes define it, yes make errors fail the build", "Define \\etal (et~al.\\@\\xspace with xspace in preamble.tex) and make LaTeX errors fail the build: project latexmkrc with $force_mode = 0 and -halt-on-error, used via latexmk -r latexmkrc.", [r"halt-on-error|force_mode|latexmkrc|etal|define", r"fail|error|xspace"]),
    f("t18", "path", "should", "check: checkbib\\n\\tchktex -q -l .chktexrc", "Makefile: all = latexmk -r latexmkrc -pdf thesis.tex; check = checkbib + chktex -q -l .chktexrc thesis.tex chapters/*.tex; checkbib = biber --tool --validate-datamodel; clean = latexmk -C.", [r"Makefile|make check", r"chktex|checkbib|latexmk"]),
    f("t19", "command", "must", "`make check` passes (chktex clean with -n36 -n8", "make check (biber validation + chktex): latest rc=0.", [r"make check", r"rc=0|pass|clean|chktex"]),
    f("t20", "decision", "should", "ok so: fix the 3 W24, and turn off W8 too", "Fix the 3 W24 (space before \\label) and turn W8 off too; .chktexrc has CmdLine { -n36 -n8 }.", [r"W24|W8|-n8|-n36", r"label|off|chktexrc"]),
    f("t21", "request", "must", "the print shop (Unigrafia) needs PDF/A-1b", "The print shop Unigrafia needs PDF/A-1b (print order due 5 working days before the defence).", [r"PDF/A|a-1b|1b", r"Unigrafia|print"], "done"),
    f("t22", "error", "should", "LaTeX Error: Option clash for package hyperref", "With pdfx: 'Option clash for package hyperref' caused by \\PassOptionsToPackage{colorlinks}{hyperref} in chapters/abstract.tex line 2 (template line); removed, \\hypersetup{colorlinks=true,allcolors=black} after pdfx instead.", [r"Option clash|PassOptionsToPackage|colorlinks", r"hyperref|pdfx|abstract"], "fixed"),
    f("t23", "path", "should", "\\\\Title{Morphological segmentation for low-resource Uralic languages}", "New thesis.xmpdata (title 'Morphological segmentation for low-resource Uralic languages', author Aino Rautio, en-GB, keywords) for pdfx; preamble loads \\usepackage[a-1b]{pdfx} instead of hyperref.", [r"xmpdata|pdfx", r"Title|Uralic|a-1b|metadata"]),
    f("t24", "error", "must", "veraPDF: not compliant, **1 rule failed: ISO 19005-1 clause 6.4**", "veraPDF failed PDF/A-1b clause 6.4 (SMask/transparency) on images on pages 89, 112, 140: PNG figures with alpha channels.", [r"6\.4|SMask|transparen|alpha", r"veraPDF|PDF/A|figure|PNG"], "fixed"),
    f("t25", "fix", "should", "flattened figures/f4-errors-by-pos.png", "Flattened f4-errors-by-pos, f5-morfessor-vs-crf, f6-lang-map PNGs onto white with ImageMagick (convert -background white -alpha remove -alpha off).", [r"flatten|alpha remove|f4|f5|f6", r"PNG|figure|white|alpha"]),
    f("t26", "command", "must", "verapdf --flavour 1b thesis.pdf 2>/dev/null | grep -o 'isCompliant", "PDF/A check: verapdf --flavour 1b thesis.pdf -> isCompliant=\"true\" (231 pages, PDF 1.4).", [r"verapdf|veraPDF", r"compliant|true|1b"]),
    f("t27", "request", "should", "tell me what to change in the notebooks later, not now", "Later (not now): change the Python notebooks so figures are saved without transparency (facecolor='white', transparent=False).", [r"notebook", r"later|transparen|facecolor|white"], "open"),
    f("t28", "command", "should", "make 2>&1 | grep -E 'Output written' ; verapdf", "Build: make (latexmk -r latexmkrc -pdf thesis.tex with -halt-on-error); latest thesis.pdf 231 pages.", [r"make|latexmk", r"231|Output written|pdf"]),
    f("t29", "state", "must", "Committed `c3e8d14`", "Committed c3e8d14 (one commit, not pushed). Open for 2 December: front matter vs the 200-page limit, virpioja2013 missing booktitle, notebooks' transparent backgrounds.", [r"c3e8d14"]),
    f("t30", "finding", "nice", "About 4 runs: that's normal with biblatex", "Four runs are normal with biblatex (pdflatex, biber, pdflatex, pdflatex); latexmk decides.", [r"4 runs|four runs|runs", r"biber|biblatex|normal|latexmk"]),
    f("t31", "fix", "nice", "+\\LaTeX\\ is used", "W1 fixed by adding '\\ ' after \\LaTeX, \\TeX, \\ldots in method, background, intro; the \\etal ones resolved by xspace.", [r"W1|\\\\ |LaTeX", r"space|ldots|TeX"]),
]
dump(HERE, META_, COMPACTIONS, FACTS)
