"""Where each benchmark dataset comes from: the table that ``fetch_datasets`` reads.

Each dataset is one or more files at a fixed commit of a public GitHub repository, the SHA-256
of each file as downloaded, the conversion that turns them into the package's CSV format
(:func:`pymoo_fs.datasets.fetch.convert`) and the SHA-256 of the resulting CSV text (the
decompressed content of ``<name>.csv.gz``). The repositories, paths and commits are those of
the project's ``MANIFEST.tsv`` (``pymoo_fs/datasets/data/BENCHMARKS.tsv``), except ``wine``
and ``zoo``: the manifest names the PyPI wheel ``mafese-1.0.0``; they are fetched from the
same files in the GitHub repository of that release (thieu1995/mafese, tag ``v1.0.0``).
Every checksum was computed from the repositories' files and every conversion checked to
reproduce the project's copy byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BENCHMARK_SOURCES", "DEFAULT_MIRROR", "DatasetSource", "SourceFile"]

#: Base URL of the downloads: ``<DEFAULT_MIRROR>/<repository>/<commit>/<path>``.
DEFAULT_MIRROR = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class SourceFile:
    """One source file of a dataset: a path at a commit of a GitHub repository.

    Parameters
    ----------
    repository : str
        ``"owner/name"`` on GitHub.
    commit : str
        The full 40-hex-digit commit the file is read at.
    path : str
        The file's path inside the repository.
    sha256 : str
        SHA-256 (hex) of the file's bytes as downloaded.
    """

    repository: str
    commit: str
    path: str
    sha256: str

    @property
    def url(self) -> str:
        """str: The file's raw URL, ``https://raw.githubusercontent.com/<repo>/<commit>/<path>``."""
        return f"{DEFAULT_MIRROR}/{self.repository}/{self.commit}/{self.path}"


@dataclass(frozen=True)
class DatasetSource:
    """How to obtain one dataset: its source files, their conversion and the result's checksum.

    Parameters
    ----------
    name : str
        The dataset's name; it is fetched as ``<name>.csv.gz``.
    converter : str
        The conversion of the source files to CSV text (see
        :func:`pymoo_fs.datasets.fetch.convert`).
    sha256 : str
        SHA-256 (hex) of the converted CSV text, i.e. of the decompressed ``<name>.csv.gz``.
    files : tuple of SourceFile
        The source files, in the order the conversion takes them.
    """

    name: str
    converter: str
    sha256: str
    files: tuple[SourceFile, ...]


_TABLE = (
    DatasetSource("9_tumors", "csv_header",
                  "bbb3147e377d71d5156ed088ff7ec38fa6a1f5c527847e4d01e09a561fdec726", (
        SourceFile("HDD7/MASA-PSO", "8403ffab6bbb8d83880939b4944742c9eeeeb2f3",
                   "datasets/low-sample/9_Tumors.csv",
                   "3dec6e5dd756f60c2b3033d853717c749dd4261453c125cee46fb6c710fae04f"),
    )),
    DatasetSource("allaml", "mat",
                  "e9cd7f36b658286c76b588f73946cd6d80d589bb17ed6ce3c55de3eca2271a9a", (
        SourceFile("Zhang-ZeSheng/Feature-Selection-Datasets",
                   "e61f7702a8c520cfd33d0e7b94cedb99df4466aa",
                   "ALLAML.mat",
                   "82afd66b425605870da4a4dfaf5d898cbb9035030c8f26801e473d7ddf9929c1"),
    )),
    DatasetSource("australian", "pmlb",
                  "8dabae2eb6f6bbb034d07ddd474cc94b8e2b4ea94528ae4b7891affa09b4e4b7", (
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/australian/australian.tsv.gz",
                   "7f3e5e96b80f5217830cdd198d33b4262cbded4f7cc22981daaa5d61fdcb8329"),
    )),
    DatasetSource("brain_tumor1", "csv_header",
                  "74727ecc5f6032a93a2050ca83cf925ba00e09c7d8e6115f24350f378501f09b", (
        SourceFile("HDD7/MASA-PSO", "8403ffab6bbb8d83880939b4944742c9eeeeb2f3",
                   "datasets/low-sample/Brain_Tumor1.csv",
                   "e6cb077ebb6d46a2a9883d1c45fddfad38185138ffb3981baaf40912114a5a29"),
    )),
    DatasetSource("brain_tumor2", "mat",
                  "19c7b2e3b155d04d998df0f4dcfab6c86df28d867064b87534e4be346c71574b", (
        SourceFile("Zhang-ZeSheng/Feature-Selection-Datasets",
                   "e61f7702a8c520cfd33d0e7b94cedb99df4466aa",
                   "Brain_Tumor_2.mat",
                   "741cdfaf83ed6693682dc816434310bd8e5865f936e8a63c70e304569567a2e6"),
    )),
    DatasetSource("coil20", "mat",
                  "d11d25132cdd63ce7cbcbdae46b8ef1a4d28146a349f53b98241e07228c25d78", (
        SourceFile("farhadabedinzadeh/AutoUFSTool",
                   "b455bccdaad9c7c040365894bd44500b898419af",
                   "COIL20.mat",
                   "4595ebdda07f47b0eb014fcfaddc22b452f9aed9c1d9261a0d5bc336c1ee1344"),
    )),
    DatasetSource("dlbcl", "csv_header",
                  "159bda7c84f2905ab1b5b80fb54bf01a3c94ff2f1e3c94dd2bee3ddd36b27007", (
        SourceFile("HDD7/MASA-PSO", "8403ffab6bbb8d83880939b4944742c9eeeeb2f3",
                   "datasets/low-sample/DLBCL.csv",
                   "0a30aa1463868e1a85e6dbcfa83c932e04dc0351d61e7b15be40dcf57f467799"),
    )),
    DatasetSource("gas6", "gas",
                  "d8a295d736eaee065f8efcf5e6df95998d45446891631f3b4bfc68c569a97049", (
        SourceFile("dongxiaorui1988/OIML_SALDC",
                   "87ddae3ba46f37303543340d91c34abb3d1b9d53",
                   "batch6.csv",
                   "0916e5c8c7f7642b9cc4939b1d5df21466b7cc5cdde2cb0f5efc4e224aa6a20e"),
    )),
    DatasetSource("german", "whitespace",
                  "75213fc00cb4b7bd5b9ba16822af1249d8006ec5ec61d89644010c22b5cd3bd0", (
        SourceFile("lfvvercosa/base_german",
                   "79e3c5d7dbed57ca5b2b92cba72c1d9350c6370a",
                   "german.data-numeric",
                   "2752b044394958ab6dd193a0b56ca0f0b3a2d8bc7cb8c008e35a5e84bbec02f8"),
    )),
    DatasetSource("glioma", "mat",
                  "54ece178dd91a340676e9f3f71fc4e5c6db1ce2f8ad2dba66bf7dc1f7dbacd46", (
        SourceFile("Zhang-ZeSheng/Feature-Selection-Datasets",
                   "c1124d8008bf6475eaad42c1a64cfc5401206941",
                   "GLIOMA.mat",
                   "1aa2cab909dcd0b8335117c464925f96e6e0da6654221948ce75134fc03017b7"),
    )),
    DatasetSource("ionosphere", "pmlb",
                  "09ddbea96a53df02b6cad55f6fd2fa12cef682252136c0386d7a5c2b4d0248ce", (
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/ionosphere/ionosphere.tsv.gz",
                   "adb6fc877404f2b55f6d59fc7322265c733f5cf0ae6d7c2e52c3468733630023"),
    )),
    DatasetSource("isolet", "mat",
                  "ca23ec303f2efdc00f7dd5f9fb147d7a09a83a625adb47895f17601849086bdc", (
        SourceFile("anony259106/icml2024", "459e8ded66511704eadc380b01b1dcc0e28be0d2",
                   "data/isolet.mat",
                   "9d04317e379b959639e5bf0cc553a9d81c39935ebf1f6983ca20a2facd325578"),
    )),
    DatasetSource("leukemia", "mat",
                  "d8f6744bf5953decc2754ad67b43ec40cb9f442d7ea757a2538bf6721be8648e", (
        SourceFile("Zhang-ZeSheng/Feature-Selection-Datasets",
                   "c1124d8008bf6475eaad42c1a64cfc5401206941",
                   "leukemia.mat",
                   "7a6a43094c4c8d745f94e814d923a33236b3ded211d1d561655381a3963ffd78"),
    )),
    DatasetSource("leukemia1", "csv_header",
                  "d8df99da43cc884d330003b31ebcdc532f8699a70895f2786b35bcf6be473b4c", (
        SourceFile("HDD7/MASA-PSO", "8403ffab6bbb8d83880939b4944742c9eeeeb2f3",
                   "datasets/low-sample/Leukemia1.csv",
                   "24a3d059c4b5ab720948d69644575a7e35b6c5772cfd13a5b5f2753e0a18438f"),
    )),
    DatasetSource("leukemia2", "csv_header",
                  "b519afd30216686e635edb5aca06b239253cad92c912b5da2ab0750af363b239", (
        SourceFile("HDD7/MASA-PSO", "8403ffab6bbb8d83880939b4944742c9eeeeb2f3",
                   "datasets/low-sample/Leukemia2.csv",
                   "666ddc5bd716e84bdec453cbbc47b75057c81ad0fba0b9cbed5ddf7acbc083a7"),
    )),
    DatasetSource("libras", "pmlb",
                  "6979e061317cb605fe1e2c4874b28256ccfca763de3fbdb7389082573f48677f", (
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/movement_libras/movement_libras.tsv.gz",
                   "77c9c61118e72c3f49f52fd5eda8ec95ce9a573cb2f1a51b15480966f320fc85"),
    )),
    DatasetSource("lsvt", "lsvt_xlsx",
                  "d999272fa25544df433edc381b468d3f9802220c8b0ac6028a8a15a314a9252b", (
        SourceFile("mefe06/feature-selection",
                   "a9b8aac149d19eead61fd2165d7ffd617d6860b6",
                   "LSVT_voice_rehabilitation.xlsx",
                   "48bd2259bae3c2163fc684893923b3b14684c26d3d4ac955296aff72295ee755"),
    )),
    DatasetSource("lymphoma", "mat",
                  "d39758af1d21ccf8ba0b47618ab5bdf861aaeeb2b519b265693f8bbfb4db6582", (
        SourceFile("Zhang-ZeSheng/Feature-Selection-Datasets",
                   "471a16a4d0a1e9160943cc8126cae3407c265f92",
                   "lymphoma.mat",
                   "5b46f7bd8e82752468a2e525b3348b39c2f2ceedbae2bb2b2e1debf548a36901"),
    )),
    DatasetSource("mfeat", "mfeat",
                  "cc3d196dcd1c02ced0d3ac689008b0f2f319a7b82819db8ef2761e487f8b820a", (
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/mfeat_fourier/mfeat_fourier.tsv.gz",
                   "095b0201216bfc417af19ab19cd6e8b830320db94c89ee35ed37771396c627b9"),
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/mfeat_factors/mfeat_factors.tsv.gz",
                   "fece3ba48bd6fec6598a60377f0fbf8405e12273e369df96e55913e301f52c02"),
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/mfeat_karhunen/mfeat_karhunen.tsv.gz",
                   "4cb1dc6004ea35eb25ff2ad61479b7c083d87247adbfd09afa3623133db9a7a6"),
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/mfeat_pixel/mfeat_pixel.tsv.gz",
                   "2ec3aa555bffb8694d90f857e5728b63db5d648aa9de2999767428d0f97c0801"),
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/mfeat_zernike/mfeat_zernike.tsv.gz",
                   "7588f768fd04efea659d6f1cd0fd118c121ebc48fe8923f6e4ec1f7fb74df334"),
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/mfeat_morphological/mfeat_morphological.tsv.gz",
                   "08a200bfc2d59c38bd8936b038483f6406834473901b04103e7077eb3b257110"),
    )),
    DatasetSource("musk1", "musk",
                  "280af34183f7215ded00006a0ac6a03da0da7ea9459ba972e75115a90810e49e", (
        SourceFile("doanhlee04/MachineLearning",
                   "968f8ddbdbe121d00155327c59f98b19525cbfb4",
                   "clean1.data",
                   "37d199d9c7c1c0763d58adb629a8a2e5ef410cdc088b28344b7c12c0bda5dcd1"),
    )),
    DatasetSource("orl", "mat",
                  "dbc0e8404d3bd0e721dcf61c26b4ed1dea6001a3ed9eb111202bab74db2d7470", (
        SourceFile("anony259106/icml2024", "459e8ded66511704eadc380b01b1dcc0e28be0d2",
                   "data/orl.mat",
                   "45a87c99af4df83ae419689f94ff83bae20c7bb7039f5d4f1cc0aa1316c246b5"),
    )),
    DatasetSource("prostate_ge", "mat",
                  "3b075af6ae2c2db1dc91c418b9d40db41817f58403e94694db60404f72bb5e33", (
        SourceFile("Zhang-ZeSheng/Feature-Selection-Datasets",
                   "8d93e6e2516f1f6e1c6ac9bfe223368325c77117",
                   "Prostate_GE.mat",
                   "70db27ff569c58336ca628b56956e56f8a34feab8e487a45efd28fcf661ea0c7"),
    )),
    DatasetSource("prostate_tumor", "csv_header",
                  "8e516e3e08a87cfc82f05a1a67a421ea0fd889c89165143b09f5c0568ad5885c", (
        SourceFile("HDD7/MASA-PSO", "8403ffab6bbb8d83880939b4944742c9eeeeb2f3",
                   "datasets/low-sample/Prostate_Tumor.csv",
                   "26ee8dc68ea11f5177db76c06268d9a3170fa7df856e2aa7a0290d1b3f3a3b0d"),
    )),
    DatasetSource("semeion", "semeion",
                  "5cca8bf213a43de78d945c4274576ada6f59cccd31df29de3881b50be72effbb", (
        SourceFile("claytonkb/basic_nn", "65203150e6e4fd4ceeba7d083f49fee60c94c570",
                   "semeion.data",
                   "7c74222dd9beb6a5b30c7b41104e7486cabc274e013689db1cd62b1ca56d0dd4"),
    )),
    DatasetSource("sonar", "csv_header",
                  "f3971ba7bfb14423be4bd74456416989aa4817c1eec9614184b96f2eae8007d3", (
        SourceFile("mefe06/feature-selection",
                   "3c119e6be68e8dc5d59b72717f123214fb652d1f",
                   "sonar.all-data.csv",
                   "bfcc8e9a50174a3a7a03b0604e80f3ce538553333f5f591650847ffb36b920aa"),
    )),
    DatasetSource("splice", "splice",
                  "7f65828d5aeeea3bb7ca1764c85860532848cdcc61aedd5bada18e77e62d4977", (
        SourceFile("anony259106/icml2024", "459e8ded66511704eadc380b01b1dcc0e28be0d2",
                   "data/splice.csv",
                   "4ff60b64af4f5baa3a9c77ba74bc9655031f57b782a9712b2fc0d79bdb7a0192"),
    )),
    DatasetSource("srbct", "csv_header",
                  "c92cb58d23f8cea6fdf409a525fd31b28d9e39d287f3fb4a8e153e49d2d2bc9f", (
        SourceFile("HDD7/MASA-PSO", "8403ffab6bbb8d83880939b4944742c9eeeeb2f3",
                   "datasets/low-sample/SRBCT.csv",
                   "03cdc431a817069b0f0b2cf96baee576d712eea9432db9b15b66a5324d4c9985"),
    )),
    DatasetSource("urban_land_cover", "urban",
                  "610dc25b151999308c5a50a66e79a453bd1e019d6ad6ce9cd3a4e1c73b6c640e", (
        SourceFile("EgemenYapucu/Urban-Land-Cover-Analize",
                   "394130ca304020563a97a9967cde8beeba824feb",
                   "training.csv",
                   "c4c1ca9301ba34bb5c3d8984423121d30a1c72db68df4d562bf660710160e529"),
        SourceFile("EgemenYapucu/Urban-Land-Cover-Analize",
                   "394130ca304020563a97a9967cde8beeba824feb",
                   "testing.csv",
                   "22242f078b2850f7a6259a9bb1479ca08273e2f7f6bbf21344a5cc936090a150"),
    )),
    DatasetSource("vehicle", "pmlb",
                  "8c5efca8fca27479f6129c00d711978f465b2ad3ccfde77f3dc35977321018a0", (
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/vehicle/vehicle.tsv.gz",
                   "dad03273414ae7127e30b6e4e66df90319a148b37ead5dd376dd140be5baedc4"),
    )),
    DatasetSource("warpar10p", "mat",
                  "29659360fb29f56af89875ba0510057323caace0de2dcbb4bffd7a5de3bb1d66", (
        SourceFile("farhadabedinzadeh/AutoUFSTool",
                   "afc84c3597383f6ba4608bfe2d5966ad96fff402",
                   "UFSs/RNE/warpAR10P.mat",
                   "f0b13577a0de53131b5cd15ea3adb67561b48d45ea80f3ec39715a0a5bd86241"),
    )),
    DatasetSource("wdbc", "pmlb",
                  "7749946a5f3d6cf8963fc6e2c607be6c0e99c8629ba01f665455fb6e0296f57b", (
        SourceFile("EpistasisLab/pmlb", "013a12f971bbf55297302c7704301a81bb4d36ea",
                   "datasets/wdbc/wdbc.tsv.gz",
                   "a39fc5f054db506e83a4a4ec47eba1f7f9bf9bfdc983174e699312f32f42f1f5"),
    )),
    DatasetSource("wine", "csv",
                  "c8ab239f2e9741b631bac165ee49ef567589185f7499ac2619410fb2db3db03c", (
        SourceFile("thieu1995/mafese", "321c43eb63e870a430375699a814b51f7ff45211",
                   "mafese/data/cls/Wine.csv",
                   "0506bb8cf16d1774b389925eb6e5f654919df300225b4c9b5b5b7f078e76a4c6"),
    )),
    DatasetSource("yale", "mat",
                  "5baf8c334006dda4bd21daa9ff8a1f50b6ae182684d4974a13cc18f3df16359b", (
        SourceFile("farhadabedinzadeh/AutoUFSTool",
                   "afc84c3597383f6ba4608bfe2d5966ad96fff402",
                   "UFSs/RNE/Yale_32x32.mat",
                   "394e7f1175afb443e46e967bef7dd9febd8a431fcf58111baf2b97abb96f97ed"),
    )),
    DatasetSource("zoo", "csv",
                  "67d373d70086b9d3ae83c27177273451bb6ff6de8e21696daa1afffbcdded179", (
        SourceFile("thieu1995/mafese", "321c43eb63e870a430375699a814b51f7ff45211",
                   "mafese/data/cls/Zoo.csv",
                   "39b870a4edc8fdc6ebd7ce107c7b26945463a3b83780bebbae8942ffd73733cb"),
    )),
)

#: The 34 benchmark datasets by name: where each comes from and its checksums.
BENCHMARK_SOURCES: dict[str, DatasetSource] = {source.name: source for source in _TABLE}
